r"""Round nine: what got past rounds one to eight (`test_round_nine.py`).

- An abbreviation key multiplied the drawing: `Note over A,B: X = Filter <20,000 letters>, Z = Permit` is a key
  (two short names, each for words that name a step), and `recognise.abbreviations.with_abbreviations` wrote
  every `X` of every text out in full, so one message of 12,000 `X`s (a 48 KB file, within every limit) became a
  text of 288 million characters: 25 s and 1.1 GB to grade (past the 10 s budget the file is stopped, but the
  memory is not bounded by time). With the long form capped alone, words a misspelling is tried on (`Filter Fliter
  Fliter ...`, 47 characters) still grew the texts 24-fold: 15 s. Now a short name stands for at most
  `LONGEST` (48) characters, and the written-out names add at most `WRITTEN_OUT` (10,000) characters to the
  drawing's texts in all; past that a text keeps its short names (`KEY_BOMBS`).
- Participant inference walked the drawing once per participant: `_Walk.by_what_it_sends` (a participant whose name
  says no word of the exercise's stands for the one that alone sends the steps its messages name) walked every
  statement for each participant it was asked about, so 4,400 participants that send one message each (`;`
  puts twenty statements on a line: `qaaa->>B:x;qaab->>B:x;...`, 48 KB) made 19 million steps of the walk:
  5 to 9 s for kubectl-apply. Now the texts each participant sends are listed in one walk (`texts_sent_by`): 1.6 s,
  then 0.2 s with `stands_for`'s needles (below), one pass over a name's texts (a second only when brackets hold part
  of it: the same texts gave the same answer twice).
- The steps notes had drawn were gathered again for every message: a `between` rule with `after:` (kubectl-apply:
  API server to etcd, after Apply) asks which steps notes and labels drew since that step (`_Walk.noted_since`),
  and it read every such mention for every message, so one note naming Created 6,000 times (`201 `) and 3,420
  messages `A->E:x` (48 KB) read 20 million mentions: 1.4 to 1.6 s, square time and the largest cost of any file
  within the limits found (under the 2 s line on this machine, but not on a slower runner). Now each mention is
  read once for each `after:` step, and the steps kept (`noted_then_sent`): 0.08 s.
- A long run of combining marks out of canonical order: `recognise.composed` puts every text in NFC (so `e` + U+0301
  reads as `é`), and CPython's `unicodedata.normalize` sorts a run of marks into canonical order by insertion: square
  in the run, and in one C call, which the time budget's alarm cannot interrupt. `a` and 48,000 marks of 50
  combining classes, highest first (48 KB, one message or one alias), took 5.7 s; 48,000 U+0F73 TIBETAN VOWEL SIGN
  II (one character, two marks of classes 129 and 130 once decomposed) as long; `a` + 24,000 `U+0301 U+0316` 1.4 s.
  Now a text with more than `MAX_MARKS` (30, Unicode's stream-safe limit) marks in a row is read as written
  (`mark_runs()`): 0.1 s. Every character that sorts among the marks is of general category M (checked over
  Python's Unicode data), so the marks are counted by category.
- Participants' long names read again for every message (three places, all square in a name's length times the
  messages): `DirectionsCheck` asked, for every message that draws a step with a direction rule, whether its
  participants' names say the rule's words, putting each whole name through `phrase_text` each time: etcd named
  `etcd` and 24,000 characters of `a中`, sending Persist to the API server 1,750 times (`wrong_way_round`, 48 KB),
  took 10.9 s for kubectl-apply, past the 10 s budget (`x ` repeated: 4.7 s); now each participant is asked once
  per rule's words: 0.3 s. `NamedFunctionCheck`, where no line names the cache function, asked each message's
  participants whether their names say the function's home (`long_name_sends`: 24,000 characters and 3,000
  messages, 2.1 s for the flagship); now each participant is asked once: 0.2 s. And `stands_for` searched a
  name once with each of the exercise participants' words, a regex with a lookbehind tried at every place (268 for
  kubectl-apply): a name of 48,000 characters of `aB中` took 1.5 to 2.3 s however many participants shared the
  characters (`LONG_NAMES`); a word's pattern matches exactly where a plain text does (its body, with a space on
  each side that has a word gap), so each word is now looked for as that text (`phrases.phrase_needle`, checked
  against the patterns): 0.3 s.
- A phase word far after a step, repeated: `recognise._inline_phase` (`Step (some phase)`: a phase word within three
  words after a step labels it) counted the words between the step and each phase word after it, from the step every
  time: `Filter a b c d ` and `kø ` repeated over 48 KB took 13.4 s (past the 10 s budget), `cua ` 7.7 s, `sync `
  4.6 s (`PHASE_WORDS_AFTER_A_STEP`). Now where the fourth word after the step starts is found once for each step:
  0.1 s (the same phases: `Filter a b c binding cycle` still labels Filter, `Filter a b c d binding cycle` not).
- Names in two scripts side by side: `NameMatcher.find` compared every name it found in another script (Chinese,
  Japanese, ...) with every name it found in ASCII, and copied the list of them once for every step name:
  `bind过滤` (Bind, then Filter in Chinese) repeated over 48 KB took 5.9 s, `Bind 过滤 ` 3.8 s
  (`NAMES_IN_TWO_SCRIPTS`). Now each is compared with the ASCII names near it (by where they start) and the steps
  named are counted: 0.1 s, the same names (compared with the old reading on 60,000 random mixed texts).
- Learner rects inside learner rects: each rect is checked over every translucent rect around it, on each of five
  pages (`safety.learner_rect_colour`), once as the page redraws it and again for the PR comment (`untinted_marks`);
  every check parsed and composited the whole stack beneath it: 1,300 rects side by side inside 98 nested ones
  (`nested_rects("siblings")`, 43 KB) made 750,000 compositing steps (1.35 million with 1,400 rects: 5.2 s for
  `drawcheck check --format markdown`, the PR check's report, outside any time budget). Now each stack is
  composited from the one below it, once (`safety._composited`, in a dict the drawing's checks share): the same colours, 0.9 s for the whole
  command (`tree`: 800 rects each over a stack of its own, too).

Tried and held (tests where interesting):

- every unit of `UNITS` (ASCII punctuation, retraction and question words, tags, strikethrough tags, request paths,
  place names, step names and near misses of them, `<br>`, circled numbers and mark symbols) repeated to 6,000 and
  24,000 characters as a message, a note, an alias, a block label, a comment, 1,900 short messages and 1,900 short
  notes: linear (those a first, noisy scan flagged, measured again in CPU time, best of three, up to 48,000
  characters: under 0.3 s, but for the aliases, below);
- `unretracted` (`retraction`, `retracting_bracket`, `retracted_before`), `not_struck_out`, `_TAG`, `_QUESTION`,
  `_ASKED` and `_LABEL_HEAD` each match at one place or scan brackets that cannot overlap: `(no` / `sorry,` /
  `— no,` / `Q:` / `?!` / `[a]` repeated over 48 KB stay linear;
- a long participant alias in kubectl-apply (before `phrase_needle`, above): linear, 1.0 to 1.3 s at 48 KB (`aB`,
  `Q:`, `a `); now 0.3 s at most;
- words a misspelling is tried on (`Fliter `, `sattus `, `scoer `, `Pre Fitler `), 48 KB in one message: linear,
  at most 1.4 s (a window of up to 71 step names of the same first letter and length for kubectl-apply);
- a reason note that heads a phase with a phase word 12,000 times (`cua cua ...` beside the boundary:
  `ReasonCheck.groups_in` rebuilds the text once for each): 0.07 s at 48 KB;
- `unicodedata.is_normalized` (the quick check finds marks out of order at once) and `normalize` on marks already in
  order, Hangul jamo runs, `a` + 48,000 U+0301 (each can compose): linear, a few milliseconds;
- `_Walk.without_speaker` puts both participants' labels in one form for every message with a colon: square, but
  0.5 s at most within the limits (two labels of 14,000 characters, 2,000 messages `A->>B:a:b`);
- a legend whose words are 24,000 characters, keyed into 650 rects (the same string each time): 0.2 s;
- an abbreviation key of 3,000 entries (`zaaa=Bind, zaab=Bind, ...`) over 20,000 characters of text: 0.1 s;
- 2,000 header notes over 2,000 participants alternating phases (`drawn_over`): 0.05 s; 4,000 messages naming
  three steps each in random order (order, misconceptions, layout): 0.05 s; 660 rects, 99 nested blocks
  around 1,700 messages, a note of 4,900 `<br>` lines and one alternating `go func` lines (note_lines): under a
  second through `drawcheck check --format markdown` and `json`, the redrawn drawing included.
"""

from __future__ import annotations

import itertools
import string
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def key_bomb(long: str, uses: int, *, per_message: int | None = None) -> str:
    """A drawing whose key says `F` stands for `long` (and `P` for Permit), then `uses` `F`s in messages."""
    per = per_message or uses
    messages = "".join("    A->>B: %s\n" % " ".join(["F"] * min(per, uses - k)) for k in range(0, uses, per))
    return ("sequenceDiagram\n    participant A\n    participant B\n"
            "    Note over A,B: F = %s, P = Permit\n" % long) + messages


KEY_BOMBS = {
    # (the long form, how many uses, uses per message): each file is within every intake limit (< 50,000 chars)
    "one-long-name": ("Filter (" + "y" * 24_000 + ")", 12_000, None),  # 288 M characters written out: 25 s, 1.1 GB
    "within-longest": ("Filter (" + "y" * 38 + ")", 23_000, None),  # a name of 47 characters, 24-fold: 15 s
    "across-messages": ("Filter (" + "y" * 38 + ")", 16_000, 16),  # 1,000 messages
    "long-and-many": ("Filter (" + "y" * 2_000 + ")", 2_000, 20),
}


def many_senders(n: int) -> str:
    """`n` participants that send one message each (twenty statements to a line, `;` between them)."""
    ids = ("q" + "".join(p) for p in itertools.product(string.ascii_letters + string.digits, repeat=3))
    statements = [f"{next(ids)}->>B:x" for _ in range(n)]
    return "sequenceDiagram\n" + "".join(";".join(statements[k:k + 20]) + "\n" for k in range(0, n, 20))


def noted_then_sent(notes: int, messages: int) -> str:
    """kubectl-apply: a note that names a step `notes` times (`201 `: Created), then `messages` messages from the API
    server to etcd (`A->E:x`, forty to a line), each of which asks what the notes drew since Apply."""
    sent = ";".join(["A->E:x"] * 40)
    lines = [sent] * (messages // 40) + ([";".join(["A->E:x"] * (messages % 40))] if messages % 40 else [])
    return ("sequenceDiagram\n    participant K as kubectl\n    participant A as API server\n    participant E as etcd\n"
            "    K->>A: kubectl apply\n    Note over A: " + "201 " * notes + "\n" + "\n".join(lines) + "\n")


def _one_mark_of_each_class() -> list[str]:
    """A combining mark of each canonical combining class (that decomposes to nothing), highest class first."""
    import unicodedata

    marks: dict[int, str] = {}
    for cp in range(0x300, 0x2000):
        ch = chr(cp)
        if unicodedata.combining(ch) and unicodedata.category(ch) == "Mn" and not unicodedata.decomposition(ch):
            marks.setdefault(unicodedata.combining(ch), ch)
    return [marks[c] for c in sorted(marks, reverse=True)]


def mark_runs() -> dict[str, str]:
    """Texts of one letter and a long run of combining marks out of canonical order (each within Mermaid's limit)."""
    marks = _one_mark_of_each_class()
    return {
        "descending-classes": "a" + "".join(m * (48_000 // len(marks)) for m in marks),  # 5.7 s
        "two-classes": "a" + "\u0301\u0316" * 24_000,  # acute (230) then grave below (220): 1.4 s
        "tibetan-ii": "\u0f40" + "\u0f73" * 48_000,  # U+0F73 is one character, two marks (129, 130) once decomposed
        "dialytika-tonos": "a" + "\u0344\u0316" * 16_000,
    }


def wrong_way_round(name_unit: str, name_chars: int, messages: int) -> str:
    """kubectl-apply: etcd with a long name (`etcd ` and `name_unit` repeated) sends Persist to the API server
    `messages` times: drawn the wrong way round every time (forty statements to a line)."""
    sent = ["E->>A:persist"] * messages
    return ("sequenceDiagram\n    participant E as etcd " + name_unit * (name_chars // len(name_unit)) + "\n"
            "    participant A as API server\n" + "".join(";".join(sent[k:k + 40]) + "\n" for k in range(0, messages, 40)))


def long_name_sends(name_unit: str, name_chars: int, messages: int) -> str:
    """A participant with a long name (`name_unit` repeated) sending `messages` messages that name nothing (forty
    statements to a line)."""
    name = name_unit * (name_chars // len(name_unit))
    sent = ["A->>B:x"] * messages
    return (f"sequenceDiagram\n    participant A as {name}\n    participant B as {name[:100]}\n"
            + "".join(";".join(sent[k:k + 40]) + "\n" for k in range(0, messages, 40)))


def long_names(unit: str, participants: int, chars: int) -> str:
    """`participants` participants named `unit` repeated (`chars` characters in all), each sending one message."""
    each = chars // participants
    declared = "".join(f"    participant P{k} as {unit * (each // len(unit))}\n" for k in range(participants))
    return "sequenceDiagram\n" + declared + "".join(f"    P{k}->>P{(k + 1) % participants}: x\n" for k in range(participants))


LONG_NAMES = {  # (unit, participants, characters of names in all): 1.5 to 2.3 s for kubectl-apply before
    "one-name": ("aB\u4e2d", 1, 48_000),
    "many-names": ("aB\u4e2d", 24, 47_000),
    "brackets": ("aB\u4e2d", 1, 47_000),  # with a bracket at its end, below: its words outside brackets read first
}


PHASE_WORDS_AFTER_A_STEP = {  # a step, four words, then a phase word repeated: (the phase word and a space, exercise)
    "catalan-queue": ("cua ", "two-cycles"),  # 7.7 s
    "norwegian-queue": ("k\u00f8 ", "two-cycles"),  # 13.4 s: past the 10 s budget
    "sync": ("sync ", "two-cycles"),  # 4.6 s
}


def phase_words_after_a_step(word: str, chars: int = 48_000) -> str:
    head = "Filter a b c d "
    return "sequenceDiagram\n    A->>B: " + head + word * ((chars - len(head)) // len(word)) + "\n"


NAMES_IN_TWO_SCRIPTS = {  # a unit repeated over 48 KB in one message (the flagship): a name in ASCII and one in Chinese
    "bind-filter-joined": "bind\u8fc7\u6ee4",  # `bind过滤`: 5.9 s
    "bind-filter": "Bind \u8fc7\u6ee4",  # 3.8 s
    "filter-bind": "\u8fc7\u6ee4 Bind ",  # 3.2 s
    "filter-queue": "Filter \u961f\u5217 ",  # `队列` (queue): 1.3 s
}


def nested_rects(shape: str) -> str:
    """Learner rects, each checked over every translucent rect around it: 98 nested rects, then 1,300 rects side by
    side inside them (`siblings`), or 800 rects inside them each holding one more (`tree`: every inner rect over a
    stack of its own); ten to a line (`;`)."""
    trunk = "".join(f"    rect rgba({k * 37 % 256}, {k * 91 % 256}, {k * 53 % 256}, 0.1)\n" for k in range(98 if shape == "siblings" else 96))
    if shape == "siblings":
        units = [f"rect rgb({k % 256},{k * 29 % 256},9);A->>B:x;end" for k in range(1_300)]
    else:
        units = [f"rect rgb({k % 256},{k * 7 % 256},9);rect rgb(9,{k % 256},{k * 3 % 256});A->>B:x;end;end" for k in range(800)]
    inner = "".join(";".join(units[k:k + 10]) + "\n" for k in range(0, len(units), 10))
    depth = 98 if shape == "siblings" else 96
    return ("sequenceDiagram\n    participant A\n    participant B\n    A->>B: Filter\n" + trunk + inner
            + "    end\n" * depth)
