#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""Fills the numerus forms of the console's English translation from its source text.

The console writes a counted phrase once, in the source, with the plural spelled in a notation:
tr("%Ln event(s) match", nullptr, n). Qt picks the singular or the plural form from the
translation; without one it prints the source as it is, "1 event(s) match". English has no
translator, so this script writes its two forms from the notation:

  word(s)      event(s)       -> event / events
  word(es)     match(es)      -> match / matches
  (one|many)   entr(y|ies)    -> entry / entries; also whole words: (is|are), (was|were)

and marks them finished. A numerus message without the notation ("the last run of %n failed")
reads the same for every count: both forms are its source text.

    english_plurals.py TS_FILE          fill TS_FILE in place (update_translations, after lupdate)
    english_plurals.py --check TS_FILE  exit 1 when a numerus message of TS_FILE is not filled
                                        as above (the ctest translations_current)

Edits the text lupdate wrote, nothing else, so running lupdate again leaves the file unchanged.
Python 3 standard library only.
"""

import re
import sys

MESSAGE = re.compile(r'(<message numerus="yes">\n)(.*?)(\n\s*</message>)', re.S)
SOURCE = re.compile(r"<source>(.*?)</source>", re.S)
TRANSLATION = re.compile(r"( *)<translation[^>]*>.*?</translation>", re.S)
# "(s)" and "(es)" right after a letter; "(one|many)" after a letter or standing alone.
NOTATION = re.compile(r"(?<=[A-Za-z])\((e?s)\)|\(([A-Za-z']*)\|([A-Za-z']*)\)")


def forms(source):
    """The singular and the plural English form of a numerus message's source."""

    def pick(plural):
        def replace(m):
            if m.group(1) is not None:
                return m.group(1) if plural else ""
            return m.group(3) if plural else m.group(2)

        return replace

    return NOTATION.sub(pick(False), source), NOTATION.sub(pick(True), source)


def translation(source, indent):
    one, many = forms(source)
    inner = indent + "    "
    return (
        f"{indent}<translation>\n"
        f"{inner}<numerusform>{one}</numerusform>\n"
        f"{inner}<numerusform>{many}</numerusform>\n"
        f"{indent}</translation>"
    )


def fill(text):
    """The .ts text with every numerus message's forms written from its source."""

    def message(m):
        body = m.group(2)
        source = SOURCE.search(body)
        if not source:
            return m.group(0)
        body = TRANSLATION.sub(lambda t: translation(source.group(1), t.group(1)), body, count=1)
        return m.group(1) + body + m.group(3)

    return MESSAGE.sub(message, text)


def unfilled(text):
    """The sources of numerus messages whose forms are not what fill() writes."""
    filled = MESSAGE.finditer(fill(text))
    return [
        SOURCE.search(m.group(2)).group(1)
        for m, f in zip(MESSAGE.finditer(text), filled)
        if m.group(0) != f.group(0)
    ]


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    if len(paths) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = paths[0]
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if check:
        missing = unfilled(text)
        for source in missing:
            print(f"{path}: numerus forms not filled: {source}", file=sys.stderr)
        return 1 if missing else 0
    filled = fill(text)
    if filled != text:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(filled)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
