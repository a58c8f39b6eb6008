"""The one right-hand panel (`sidePanel`) and its tabs: goal, facts, checkpoint, snapshots."""
