"""What counts as a reference: the word tables, the checks and the rule table ``references`` runs.

Split from ``references`` so that the matching and ranking code stays short; this module only
describes patterns. Order in :data:`RULES` is the tie-break between spans of equal length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise


def _words(text: str) -> list[str]:
    return text.split()


def _alt(words: Sequence[str]) -> str:
    """A regex alternation, longest first so that ``seconds`` is tried before ``s``."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


_EXT = _alt(_words("""\
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
CURRENCY_CODES = _words("""\
USD EUR GBP CHF JPY CNY INR CAD AUD SEK NOK DKK PLN
AED AFN ANG AOA ARS AWG AZN BBD BDT BGN BHD BIF BMD BND BRL BSD BTN BWP BYN BZD CDF CLP CRC
CZK DJF DOP DZD EGP ERN ETB FJD FKP GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS IQD IRR
ISK JMD JOD KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MDL MGA MKD MMK MNT
MRU MUR MVR MWK MXN MYR MZN NGN NIO NPR NZD OMR PAB PGK PKR PYG QAR RON RSD RUB RWF SAR SBD
SCR SDG SGD SHP SLE SRD SSP STN SYP SZL THB TJS TMT TND TTD TWD TZS UAH UGX UYU UZS VES VND
VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL""")
_UNIT = _alt(_words("""\
ns µs μs us ms s sec secs second seconds min mins minute minutes h hr hrs hour
hours day days week weeks month months year years yr yrs B KB kB MB GB TB PB KiB MiB GiB TiB Kb Mb
Ki Mi Gi Ti
Gb kbps Mbps Gbps bytes byte bits Hz kHz MHz GHz % percent pct ‰ °C °F px pt em rem vh vw dpi ppi
fps mA mAh Ah kW kWh Wh MW mV kV km m cm mm µm nm mi ft miles meters metres kg g mg lb lbs oz tons
tonnes ml mL L litre litres liter liters gallon gallons m² km² cm² mm² ft² m³ cm³
€ $ £ ¥ dollars euros pounds cents
requests request req reqs queries users connections workers threads cores vCPUs CPUs GPUs replicas
nodes pods shards partitions rows records tokens retries attempts events messages jobs
transactions instances seats licenses RPS rps QPS qps TPS tps RPM rpm ops IOPS""") + CURRENCY_CODES)
# Cardinal numbers in words (a closed class) and the units of time they count in a duration.
NUMBER_WORDS = frozenset(_words("""\
one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
hundred"""))
_NUMBER_WORDS = _alt(sorted(NUMBER_WORDS))
_TIME_UNIT = _alt(_words("""\
second seconds minute minutes hour hours day days week weeks month months year
years"""))
_PER = _alt(_words("""\
s sec second min minute h hr hour day week month mo year yr request req user seat
node core instance GB TB MB"""))
_PRODUCTS = _alt(_words("""\
python py node nodejs node.js deno bun npm pnpm yarn pip java jdk jre openjdk
kotlin scala go golang rust rustc cargo ruby rails php perl swift dotnet .net gcc clang llvm cmake
postgres postgresql mysql mariadb sqlite redis mongodb mongo elasticsearch kafka rabbitmq nginx
apache tomcat docker kubernetes k8s helm terraform ansible ubuntu debian fedora centos rhel alpine
windows macos ios android linux kernel chrome chromium firefox safari electron react vue angular
svelte next.js nuxt django flask fastapi spring laravel qt pyside6 pyqt5 pyqt6 numpy pandas
pytorch torch tensorflow cuda cudnn ollama llama qwen gemma mistral phi openssl openssh git bash
zsh powershell typescript ecmascript unicode http tls ssl oauth sdk ndk protobuf grpc version
release"""))
_STOP = _alt(_words("""\
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
_PREP = _alt(_words("""\
with from to in on at by for into onto via using through over under after before
when if and or but every each all some any more twice once again then as is are was"""))
_NUM = (r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?"
        r"|\d{1,3}(?:[\u00a0\u202f']\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?!\d)")
_MULT = r"(?:[kKMB](?![A-Za-z])|\s?(?:million|billion|thousand|bn|mn)\b)"
_RATE = rf"(?:\s?/\s?(?:{_PER})|\s+per\s+(?:{_PER}))(?![A-Za-z])"
_UNIT_END = r"(?![A-Za-z0-9_])"
_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November"
          r"|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?")
_TICKET_STOP = _alt(_words("""\
UTF ISO SHA AES RSA GPT COVID TLS SSL HTTP IPV MD CRC DES ES ECMA PCI WPA
IEEE AVX ARM SMB NTLM PBKDF BLAKE BASE MPEG DDR LPDDR USB PCIE WIFI WCAG EN DIN UN"""))
_SECTIONS = _alt(_words("""\
Section Sections Figure Fig Table Chapter Step Page Item Part Appendix
Rule Article Clause Paragraph Verse Listing Exercise"""))
_KNOWN_DIRS = set(_words("""\
src lib app apps tests test docs bin etc var usr opt home config scripts pkg
cmd internal build dist packages assets static public include tools data feature fix bugfix
hotfix release origin refs"""))
_QUOTE = (r"(?:[\"“”`]|(?<![A-Za-z])')(?P<q>[^\"“”`'\n]{2,60}?)(?:[\"“”`]|'(?![A-Za-z]))")
_TOKEN = r"[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?(?!\w)"
_X = rf"(?:{_QUOTE}|(?!(?i:{_STOP})\b)(?P<ref>[A-Z][\w-]*(?:[ ][A-Z][\w-]*){{0,3}}|{_TOKEN}))"
_END = (r"(?=[ \t]*(?:[.,;:!?)\]}\"”\n]|$)|[ \t]+(?i:and|or|but|so|from|for|because|since|then"
        r"|going|instead|when|while|until|as|in|on|to|too|now|here|please|with|which|that)\b)")
# "call" after "on" is a noun ("on call this week"), naming nothing
_NAME_VERB = r"(?<![Oo]n )(?i:call(?:s|ed|ing)?|nam(?:e|es|ed|ing)|dub(?:s|bed)?)"

Check = Callable[[re.Match[str]], tuple[str, str] | None]


@dataclass(frozen=True, slots=True)
class Rule:
    pattern: re.Pattern[str]
    kind: str
    whole: bool = False  # the overlap span is the whole match, not just the reference group
    check: Check | None = None


def match_text(match: re.Match[str]) -> str:
    for group in ("q", "ref"):
        if group in match.re.groupindex and match.group(group) is not None:
            return match.group(group)
    return match.group(0)


def _rule(pattern: str, kind: str, *, whole: bool = False, check: Check | None = None) -> Rule:
    return Rule(re.compile(pattern), kind, whole, check)


def _has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


def _check_path(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0).rstrip(".,:;!?")
    if not _has_letter(text):
        return None
    if "/" in text and not text.startswith(("/", "~/", "./", "../")):
        parts = [p for p in text.split("/") if p]
        special = any(c in "._-@+" or c.isdigit() for c in text)
        if len(parts) == 2 and any(p.isdigit() for p in parts):
            return None
        if not (len(parts) >= 3 or text.endswith("/") or special or parts[0] in _KNOWN_DIRS):
            return None
    elif text.startswith("/") and len(text.strip("/").split("/")[0]) < 3:
        return None
    if re.fullmatch(r"[A-Z][a-z]+\.js", text):
        return text, "name"  # Node.js, Vue.js: products, not files
    return text, "path"


def _check_windows(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0).rstrip(".,:;!?)")
    return (text, "path") if len(text) > 3 else None


def _check_function(match: re.Match[str]) -> tuple[str, str] | None:
    name, args = match.group("ref"), match.group("args").strip()
    if len(name) < 2 or args in {"s", "es", "ies", "ren", "e"}:
        return None  # "file(s)" is prose
    return name + "()", "function"


def _check_class(match: re.Match[str]) -> tuple[str, str] | None:
    word = match.group(0)
    if word.isupper() or re.fullmatch(r"[A-Z]+s", word) or not any(c.islower() for c in word):
        return None
    humps = any(
        (word[i].isupper() and (word[i - 1].islower() or word[i - 1].isdigit()))
        or (word[i].isupper() and word[i - 1].isupper() and i + 1 < len(word)
            and word[i + 1].islower())
        for i in range(1, len(word))
    )
    return (word, "class") if humps else None


def _check_min(length: int) -> Check:
    def check(match: re.Match[str]) -> tuple[str, str] | None:
        text = match_text(match)
        return (text, "") if len(text) >= length else None
    return check


# The words before "9h30" that make it a time of day, not a duration ("at 9h30", "à 9h30",
# "from 8h15", "until 10h40"), and what joins a second time to a first ("from 8h15 to 10h40").
_AT_HOUR = re.compile(r"(?i:\b(?:at|à|from|until|till|by|before|after|since|dès|vers)\s+"
                      r"(?:\d{1,2}h[0-5]\d\s*(?:to|[-–]|and|et|à)\s*)?)$")


def _check_hour_h(match: re.Match[str]) -> tuple[str, str] | None:
    """"17h30" is a time; "2h15" after no word of a point in time is a duration ("the flight
    is 2h15"): an hour of 13 or later can only be a time of day, an earlier one only after
    "at", "from", "until"... (or as the second of "from 8h15 to 10h40")."""
    text = match.group(0)
    if int(text.split("h")[0]) >= 13 or _AT_HOUR.search(match.string, 0, match.start()):
        return (text, "time")
    return (text, "number")


def _check_hash(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0)
    ok = any(c.isdigit() for c in text) and any(c.isalpha() for c in text)
    return (text, "hash") if ok else None


def _check_ip(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group(0)
    octets = text.split("/")[0].split(".")
    return (text, "url") if all(int(o) <= 255 for o in octets) else None


_ENDS_WITH_EXT = re.compile(rf"\.(?i:{_EXT})$")


def _check_port(match: re.Match[str]) -> tuple[str, str] | None:
    host = match.groupdict().get("host")
    if host is not None and not _has_letter(host) and host.count(".") != 3:
        return None  # 14:30 is a time
    if host is not None and _ENDS_WITH_EXT.search(host):
        return None  # main.py:42 is a line number
    text = match.group("ref")
    return (text, "port") if 1 <= int(text) <= 65535 else None


def _check_host(match: re.Match[str]) -> tuple[str, str] | None:
    host = match.group("ref")
    if _ENDS_WITH_EXT.search(host) or len(host) < 3 or host[0].isupper():
        return None
    return host, "url"


def _check_number(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group("ref")
    if match.group("bare") is not None and not re.fullmatch(
        r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?"
        r"|\d{1,3}(?:[\u00a0\u202f']\d{3})+(?:[.,]\d+)?", text):
        return None  # a bare number is kept only when its separators make it a figure
    return text, "number"


def _check_digit_groups(match: re.Match[str]) -> tuple[str, str] | None:
    """Digit groups joined by hyphens with six digits or more (a phone or account number):
    "2019-2023" (two years) and "10-20" (a range) are no such number."""
    text = match.group(0)
    digits = sum(c.isdigit() for c in text)
    years = all(len(g) == 4 and g[:2] in ("19", "20") for g in text.split("-"))
    return (text, "name") if digits >= 6 and not years else None


# The units of a duration in several parts, by size (a larger unit comes first).
_SPAN_RANKS = {
    **dict.fromkeys(("week", "weeks", "wk", "wks"), 5),
    **dict.fromkeys(("day", "days", "d"), 4),
    **dict.fromkeys(("hour", "hours", "hr", "hrs", "h"), 3),
    **dict.fromkeys(("minute", "minutes", "min", "mins", "m"), 2),
    **dict.fromkeys(("second", "seconds", "sec", "secs", "s"), 1),
}
_SPAN_UNIT = _alt(list(_SPAN_RANKS)) + r"(?![A-Za-z])"


def _check_span(match: re.Match[str]) -> tuple[str, str] | None:
    """Each unit smaller than the one before ("5 minutes 2 hours" is two durations)."""
    ranks = [_SPAN_RANKS[u] for u in re.findall(r"[A-Za-z]+", match.group(0)) if u != "and"]
    ok = all(a > b for a, b in pairwise(ranks))
    return (match.group(0), "number") if ok else None


def _check_phone(match: re.Match[str]) -> tuple[str, str] | None:
    """A phone number's length (9 to 15 digits, as E.164 allows): "05 10 15 20" is a list."""
    digits = sum(c.isdigit() for c in match.group(0))
    return (match.group(0), "name") if 9 <= digits <= 15 else None


def _check_lettered(match: re.Match[str]) -> tuple[str, str] | None:
    """Digit groups with a letter group among them: an identifier (a docket number)."""
    text = match.group(0)
    return (text, "name") if any(c.isalpha() for c in text) else None


def _check_product(match: re.Match[str]) -> tuple[str, str] | None:
    text = match.group("ref")
    product = match.group("product")
    if product.lower() not in _PRODUCT_SET and "." not in text[len(product):]:
        return None
    return text, "version"


_PRODUCT_SET = set(_PRODUCTS.replace("\\", "").split("|"))
_NB = r"(?<![\w.,$€£¥₹])(?<![^\W\d_]-)"  # a number starts here, not inside 1.234,56 nor "under-14s"

BACKTICK = _rule(r"(?<!`)`(?P<ref>[^`\n]{2,100})`(?!`)", "code", whole=True)
# Order is the tie-break between spans of equal length: earlier rules win.
RULES: tuple[Rule, ...] = (
    _rule(r"\b(?:https?|wss?|s?ftp|file|s3|gs|ssh|git|postgres(?:ql)?|mysql|redis"
          r"|mongodb(?:\+srv)?|amqp)://[^\s<>()\"'`\]]*[^\s<>()\"'`\].,;:!?]", "url"),
    _rule(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b", "url"),
    _rule(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?(?!\.?\w)", "url", check=_check_ip),
    BACKTICK,
    _rule(r"(?<![\w.-])\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
          r"(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])", "date"),
    _rule(r"(?<![\w./])\d{1,2}([./])\d{1,2}\1\d{4}(?![\w./])", "date"),
    _rule(r"(?<![\w./-])\d{4}/\d{1,2}/\d{1,2}(?![\w/])", "date"),  # "2024/01/05"
    _rule(rf"\b{_MONTH}\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b", "date"),
    _rule(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?\b", "date"),
    _rule(rf"\b{_MONTH}\s+\d{{4}}\b", "date"),  # a month of a year: "June 2024"
    # (the half of the day with its own dots only: "6:30 PM." ends its sentence, "6:30 p.m.")
    _rule(r"(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?"
          r"(?:\s?(?:[AaPp][Mm]\b|[AaPp]\.[Mm]\.))?"
          r"(?:\s?(?:UTC|GMT|CET|CEST|EST|EDT|PST|PDT|Z))?(?![\w:])", "time"),
    _rule(r"\b(?:[01]?\d|2[0-3])h[0-5]\d\b", "time", check=_check_hour_h),  # "17h30"
    # "8 pm", "8 p.m.", "10.30am" (an hour, its minutes after a dot, the half of the day)
    _rule(r"\b(?:1[0-2]|0?[1-9])(?:\.[0-5]\d)?\s?(?:(?:am|pm|AM|PM)\b|[AaPp]\.[Mm]\.)",
          "time"),
    _rule(r"(?<![\w\\])(?:[A-Za-z]:\\|\\\\[\w.$-]+\\)(?:[^\\/:*?\"<>|\s]+\\)*"
          r"[^\\/:*?\"<>|\s]*", "path", check=_check_windows),
    # a drive path written with forward slashes ("D:/Photos/2023"): one path, not "D"
    _rule(r"(?<![\w\\/:.-])[A-Za-z]:/(?:[^\\/:*?\"<>|\s]+/)*[^\\/:*?\"<>|\s]*", "path",
          check=_check_windows),
    _rule(rf"(?<![\w.\\-])(?:[\w.-]+\\)+[\w.-]+\.(?i:{_EXT})(?![\w-])", "path"),
    _rule(r"(?<![\w/.~\\@+:-])(?:(?:~|\.{1,2})?/(?:[\w.@+-]+/)*[\w.@+-]+/?"
          r"|[\w.@+-]+(?:/[\w.@+-]+)+/?)", "path", check=_check_path),
    _rule(rf"(?<![\w/.\\@+-])\w[\w.+-]*\.(?i:{_EXT})(?![\w-])", "path", check=_check_path),
    _rule(r"(?<![\w/.\\-])(?:\.(?:env(?:\.[\w-]+)?|gitignore|gitattributes|gitmodules|dockerignore"
          r"|editorconfig|bashrc|zshrc|profile|npmrc|pypirc|netrc|ssh|github|vscode|venv)"
          r"|Dockerfile|Containerfile|Makefile|Justfile|Procfile|Gemfile|Jenkinsfile"
          r"|Vagrantfile|Rakefile|CODEOWNERS)(?![\w-])", "path"),
    _rule(r"(?<![\w.])[vV]\d+(?:\.(?:\d+|x))*(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\w)",
          "version"),
    _rule(r"(?<![\w.])\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?"
          r"(?:\+[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\w)", "version"),
    _rule(rf"(?<![\w.])(?P<ref>(?P<product>(?i:{_PRODUCTS})|(?=[A-Za-z]*?[a-z][A-Z])[A-Za-z]++"
          rf"|(?!(?:{_SECTIONS})\b)[A-Z][A-Za-z]+(?=\s\d+\.\d+\.\d))"
          rf"[ ]?v?\d+(?:\.(?:\d+|x))*(?:-[0-9A-Za-z]+)?)"
          rf"(?![\w]|\.\w)(?!\s?(?:{_UNIT}){_UNIT_END})", "version", check=_check_product),
    _rule(r"(?<![\w.@/-])@?[\w.-]+(?:/[\w.-]+)?(?:==|>=|<=|~=|@|\^)v?\d+(?:\.(?:\d+|x))+"
          r"(?![\w]|\.\w)", "version"),
    # a product's constraint written with spaces ("Python >= 3.8", "node >= 18"): one value
    _rule(rf"(?<![\w.])(?i:{_PRODUCTS})\s(?:==|>=|<=|~=)\s?v?\d+(?:\.(?:\d+|x))*(?![\w]|\.\w)",
          "version"),
    _rule(r"(?<![\w.$])(?P<ref>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\("
          r"(?=(?P<args>(?:[^()\n]|\([^()\n]*\)){0,200})\))", "function", whole=True,
          check=_check_function),
    _rule(rf"\b{_NAME_VERB}\s+(?i:it|this|that|them|these|those)\s+(?:(?i:simply|just)\s+)?{_X}",
          "name"),
    _rule(rf"\b{_NAME_VERB}\s+(?i:the|this|that|our|my|your|their|its|an?)\s+"
          rf"(?:(?!(?i:{_PREP})\b)[A-Za-z][\w-]*\s+){{1,3}}?(?![a-z]+ly\b){_X}{_END}", "name"),
    _rule(r"\b(?i:named|called|code[- ]?name[sd]?|nicknamed|dubbed|aka|a\.k\.a\.|alias(?:ed)?"
          rf"|(?:its|the|our|my|his|her|their) name is)\s*:?\s+(?:(?i:is|was|will be)\s+)?{_X}",
          "name"),
    _rule(r"\b(?i:(?:refer(?:s|red|ring)?\s+to|think\s+of)\s+(?:(?:it|this|that|them)\s+"
          r"|(?:the|this|that|our|my)\s+(?:[A-Za-z][\w-]*\s+){1,3}?)|known\s+|goes\s+by\s+)"
          rf"(?i:as)\s+(?:(?i:the|an?|our)\s+)?(?:{_QUOTE}|(?!(?i:{_STOP})\b)"
          rf"(?P<ref>[A-Za-z0-9][\w-]*(?:[ ][A-Za-z0-9][\w-]*){{0,3}}?){_END})", "name"),
    _rule(r"(?<![\w-])[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}(?![\w-])", "hash"),
    _rule(r"(?<![\w-])(?:[0-9a-f]{64}|[0-9a-f]{7,40}|[0-9A-F]{7,40})(?![\w-])", "hash",
          check=_check_hash),
    _rule(r"\bCVE-\d{4}-\d{4,7}\b", "ticket"),
    _rule(rf"(?<![\w-])(?!(?:{_TICKET_STOP})-)[A-Z][A-Z0-9]{{1,9}}-\d{{1,6}}(?![\w-]|\.\d)",
          "ticket"),
    _rule(r"(?<![\w&#/])#\d{1,7}(?!\w)", "ticket"),
    _rule(r"(?<!\w)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?!\w)", "env", check=_check_min(5)),
    _rule(r"(?<![\w$])\$\{?[A-Z][A-Z0-9]{1,}\}?(?![\w])", "env"),
    # a number in digit groups ("555-0199", "0471-22-31-80"): one identifier, as the user
    # writes it (not a range of two numbers)
    _rule(r"(?<![\w./+-])\+?\d{2,5}(?:-\d{2,5}){1,4}(?![\w/-]|\.\d)", "name",
          check=_check_digit_groups),
    # an identifier of digit groups joined by ":" and "-" with a letter group ("2:24-cv-01178",
    # a case number): one name, not the time "2:24"; a time range ("09:30-17:00") has no letters
    _rule(r"(?<![\w./:+-])\d{1,4}:\d{1,4}(?:-[A-Za-z0-9]{1,10}){2,4}(?![\w/:-]|\.\d)", "name",
          check=_check_lettered),
    # an identifier of a letter prefix and a long digit group ("MSKU 804211-3", "PO 4500123"):
    # one name, not the letters alone (a model's number has fewer digits: "RTX 4090" stays)
    _rule(rf"(?<![\w-])(?!(?:{_TICKET_STOP})\s)[A-Z]{{2,5}}\s\d{{5,}}(?:-\d{{1,3}})?(?![\w.-])",
          "name"),
    # a name joined by "+" ("Kuehne+Nagel"): capitalised words, one name
    _rule(r"(?<![\w+])[A-Z][A-Za-z]+(?:\+[A-Z][A-Za-z]+)+(?![\w+])", "name"),
    # a phone number in space-separated digit groups after a phone-like lead ("0151 224 7799",
    # "+44 20 7946 0958"): one number as the user writes it
    _rule(r"(?<![\w.,+-])(?:\+\d{1,3}|0\d{1,4})(?: \d{2,4}){2,4}(?![\w]|[.,:]\d)", "name",
          check=_check_phone),
    # a duration in several units, largest first ("1 hour 40 minutes", "2 h 15 min", "3 days
    # and 4 hours"): one number, not two values of one key
    _rule(rf"{_NB}\d+(?:[.,]\d+)?\s?(?:{_SPAN_UNIT})(?:,?\s?(?:and\s)?\d+\s?(?:{_SPAN_UNIT})){{1,2}}"
          rf"(?![\w.,]\w|\w)", "number", check=_check_span),
    # scientific notation (3e-4, 1.5E+6): one number, not "3" and a word "e-4"
    _rule(r"(?<![\w.])[-−]?\d+(?:\.\d+)?[eE][-+−]?\d+(?!\w|\.\d)", "number"),
    # a duration in words ("two weeks", "ninety days"): a number as the user wrote it
    _rule(rf"\b(?i:{_NUMBER_WORDS})(?:[ -](?i:{_NUMBER_WORDS}))?\s+(?i:{_TIME_UNIT})\b",
          "number"),
    _rule(rf"(?P<ref>(?:(?<![^\s(\[])[-−+~≈])?(?:(?<!\w)[$€£¥₹]\s?{_NUM}{_MULT}?"
          rf"(?:\s?(?:{_UNIT}){_UNIT_END})?(?:{_RATE})?"
          rf"|(?<!\w)(?:{_alt(CURRENCY_CODES)})\s{_NUM}{_MULT}?(?:{_RATE})?"
          rf"|{_NB}{_NUM}(?:(?:\s?[-–]\s?|\s+to\s+){_NUM})?"
          rf"(?:{_MULT}?[ \u00a0\u202f]?(?:{_UNIT}){_UNIT_END}|{_MULT}|[x×](?!\w))(?:{_RATE})?"
          rf"|{_NB}(?P<bare>{_NUM})))(?!\w)", "number", check=_check_number),
    _rule(r"(?<![A-Za-z])(?i:ports?)\s*(?:(?i:number|no\.?|num)\s*)?[:=#]?\s*"
          r"(?P<ref>\d{2,5})(?![\d,.]\d|\w)", "port", check=_check_port),
    _rule(r"(?<![\w.-])(?P<host>\[[0-9A-Fa-f:]+\]|(?:\d{1,3}\.){3}\d{1,3}"
          r"|[A-Za-z0-9.-]+):(?P<ref>\d{2,5})(?![\d:]|\.\d|\w)", "port",
          check=_check_port),
    _rule(r"(?<![\w:\].-]):(?P<ref>\d{2,5})(?![\d:]|\.\d|\w)", "port", check=_check_port),
    _rule(r"(?<![\w.@/-])(?P<ref>[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*)"
          r"(?=:\d{2,5}(?![\d:]|\.\d|\w))", "url", check=_check_host),
    _rule(r"(?<![\w.@/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:com|org|net|io|dev|ai"
          r"|co|app|cloud|internal|local|lan|corp|example|test|de|uk|fr|eu|us|info|tech)"
          r"(?![\w-]|\.\w)", "url"),
    _rule(r"(?<![\w.$])[A-Z][A-Za-z0-9]{3,}(?!\w)", "class", check=_check_class),
    _rule(r"(?<![\w.$])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?!\w)", "code", check=_check_min(5)),
    _rule(r"(?<![\w.$])_{0,2}[a-z][a-z0-9]*(?:_[a-z0-9]+)+_{0,2}(?!\w)", "code",
          check=_check_min(5)),
)
