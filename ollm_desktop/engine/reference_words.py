"""The word tables the reference patterns read: file extensions, units, currency codes,
numbers in words, product names, the words that never name a thing. Split from
``reference_patterns`` so that module holds the patterns and their checks alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def words(text: str) -> list[str]:
    return text.split()


def alternation(words: Sequence[str]) -> str:
    """A regex alternation, longest first so that ``seconds`` is tried before ``s``."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


# The abbreviations of the months ("Jan", "Sept"), written with or without a full stop.
MONTH_ABBREVIATIONS = "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
# The months' names and the days of the week, as regex alternatives, one spelling for the
# patterns that read dates (the weekdays in lower case, inside a case-blind group;
# ``reference_patterns._ON_DAY`` keeps its own, which folds the case of the stems only).
MONTH_NAMES = ("January|February|March|April|May|June|July|August|September|October|November"
               "|December")
WEEKDAYS = "(?:mon|tues|wednes|thurs|fri|satur|sun)day"
EXT = alternation(words("""\
py pyi ipynb ts tsx js jsx mjs cjs rs go java kt kts scala swift c h cc cpp hpp cs
rb php pl lua dart ex exs erl hs ml clj vue svelte md rst txt adoc json jsonl yaml yml toml ini cfg
conf env properties xml html htm css scss sass less sql sh bash zsh ps1 bat lock log csv tsv
parquet proto graphql tf tfvars hcl gradle mk cmake pdf png jpg jpeg gif svg webp ico zip tar gz
tgz bz2 xz 7z whl deb rpm dmg exe msi dll so dylib wasm db sqlite sqlite3 bak pem crt key pub
service timer plist desktop qml qrc ui dockerfile patch diff"""))
# ISO 4217 codes of the currencies read before or after an amount ("CNY 41,300", "ISK 184,000",
# "45 EUR"): the closed list of current codes, less those that are also an English word or a
# name met before a number in upper case (ALL, TOP, CUP, MOP, BAM, GEL, MAD, PEN, SOS, TRY,
# AMD, BOB, NAD, PHP, COP, CVE). ``fact_keys.CURRENCIES`` is built from this list, so
# ``unit_class`` reads an amount in any of them as money ("ISK 184,000", "45 NZD").
CURRENCY_CODES = words("""\
USD EUR GBP CHF JPY CNY INR CAD AUD SEK NOK DKK PLN
AED AFN ANG AOA ARS AWG AZN BBD BDT BGN BHD BIF BMD BND BRL BSD BTN BWP BYN BZD CDF CLP CRC
CZK DJF DOP DZD EGP ERN ETB FJD FKP GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS IQD IRR
ISK JMD JOD KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MDL MGA MKD MMK MNT
MRU MUR MVR MWK MXN MYR MZN NGN NIO NPR NZD OMR PAB PGK PKR PYG QAR RON RSD RUB RWF SAR SBD
SCR SDG SGD SHP SLE SRD SSP STN SYP SZL THB TJS TMT TND TTD TWD TZS UAH UGX UYU UZS VES VND
VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL""")
UNIT = alternation(words("""\
ns µs μs us ms s sec secs second seconds min mins minute minutes h hr hrs hour
hours day days night nights week weeks month months year years yr yrs B KB kB MB GB TB PB
KiB MiB GiB TiB Kb Mb kb mb gb tb
Ki Mi Gi Ti kbit Mbit Gbit Tbit
Gb kbps Mbps Gbps bytes byte bits Hz kHz MHz GHz % percent pct ‰ °C °F px pt em rem vh vw dpi ppi
fps mA mAh Ah kW kWh Wh MW mV kV km m cm mm µm nm mi ft miles meters metres kg g mg lb lbs oz tons
tonnes ml mL L litre litres liter liters gallon gallons m² km² cm² mm² ft² m³ cm³
tsp tsps tbsp tbsps teaspoon teaspoons tablespoon tablespoons cup cups pint pints quart quarts
€ $ £ ¥ dollars euros pounds cents
requests request req reqs queries users connections workers threads cores vCPUs CPUs GPUs replicas
nodes pods shards partitions rows records tokens retries attempts events messages jobs
transactions instances seats licenses RPS rps QPS qps TPS tps RPM rpm ops IOPS knots
bar bars mbar psi kPa hPa MPa atm bpm BPM mcg µg μg IU kcal arcsec arcmin""") + CURRENCY_CODES)
# Cardinal numbers in words (a closed class) and the units of time they count in a duration.
NUMBER_WORDS = frozenset(words("""\
one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
hundred"""))
NUMBER_WORDS_RE = alternation(sorted(NUMBER_WORDS))
TIME_UNIT = alternation(words("""\
second seconds minute minutes hour hours day days week weeks month months year
years"""))
PER = alternation(words("""\
s sec second min minute h hr hour day week month mo year yr request req user seat
node core instance GB TB MB ha hectare acre"""))
PRODUCTS = alternation(words("""\
python py node nodejs node.js deno bun npm pnpm yarn pip java jdk jre openjdk
kotlin scala go golang rust rustc cargo ruby rails php perl swift dotnet .net gcc clang llvm cmake
postgres postgresql mysql mariadb sqlite redis mongodb mongo elasticsearch kafka rabbitmq nginx
apache tomcat docker kubernetes k8s helm terraform ansible ubuntu debian fedora centos rhel alpine
windows macos ios android linux kernel chrome chromium firefox safari electron react vue angular
svelte next.js nuxt django flask fastapi spring laravel qt pyside6 pyqt5 pyqt6 numpy pandas
pytorch torch tensorflow cuda cudnn ollama llama qwen gemma mistral phi openssl openssh git bash
zsh powershell typescript ecmascript unicode http tls ssl oauth sdk ndk protobuf grpc version
release"""))
STOP = alternation(words("""\
a an the it its this that these those them they him her he she me you your us we
our i my mine yours ours theirs one ones day days night quits done good bad fine even off back now
later today tomorrow tonight again first last next twice once please something anything everything
nothing whatever what who how why when where success finished complete completed ready there here
so too also then and or but with from for to of in on at by as if is are was were be been out up
down over into after before directly instead immediately manually always never just only simply
really all any some each every more less most many much other another same such own new old
function method endpoint api service server script command tool hook callback handler class
module file folder directory variable value thing stuff way time times home name names called
named uses use"""))
PREP = alternation(words("""\
with from to in on at by for into onto via using through over under after before
when if and or but every each all some any more twice once again then as is are was"""))
TICKET_STOP = alternation(words("""\
UTF ISO SHA AES RSA GPT COVID TLS SSL HTTP IPV MD CRC DES ES ECMA PCI WPA
IEEE AVX ARM SMB NTLM PBKDF BLAKE BASE MPEG DDR LPDDR USB PCIE WIFI WCAG EN DIN UN"""))
SECTIONS = alternation(words("""\
Section Sections Figure Fig Table Chapter Step Page Item Part Appendix
Rule Article Clause Paragraph Verse Listing Exercise"""))
KNOWN_DIRS = set(words("""\
src lib app apps tests test docs bin etc var usr opt home config scripts pkg
cmd internal build dist packages assets static public include tools data feature fix bugfix
hotfix release origin refs"""))
