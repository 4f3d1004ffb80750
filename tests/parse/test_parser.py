"""What the parser builds: nodes, lines, implicit participants, blocks, preprocessing."""

from __future__ import annotations

from drawcheck.parse import (
    Activation, Autonumber, Block, Link, Message, Note, parse_text,
)


def statements(d, kind):
    return [s for s, _ in d.walk() if isinstance(s, kind)]


def test_participants_aliases_actors_and_metadata():
    d = parse_text(
        "sequenceDiagram\n"
        "  participant A as Alice\n"
        "  actor U as User\n"
        '  participant DB@{ "type": "database", "alias": "Store" }\n'
        "  participant Q@{ type: queue } as Jobs\n"
        "  A->>C: implicit C\n"
    )
    assert d.errors == []
    got = [(p.id, p.label, p.kind, p.line) for p in d.participants]
    assert got == [
        ("A", "Alice", "participant", 2),
        ("U", "User", "actor", 3),
        ("DB", "Store", "database", 4),
        ("Q", "Jobs", "queue", 5),
        ("C", "C", "participant", 6),
    ]
    assert d.participant("DB").metadata == {"type": "database", "alias": "Store"}


def test_every_arrow_form_is_kept_as_written():
    arrows = ["->>", "-->>", "->", "-->", "-x", "--x", "-)", "--)", "<<->>", "<<-->>",
              "-|\\", "-|/", "-\\\\", "-//", "/|-", "\\|-", "//-", "\\\\-",
              "--|\\", "--|/", "--\\\\", "--//", "/|--", "\\|--", "//--", "\\\\--"]
    text = "sequenceDiagram\n" + "".join("A%sB: m%d\n" % (a, i) for i, a in enumerate(arrows))
    d = parse_text(text)
    assert d.errors == []
    assert [m.arrow for m in statements(d, Message)] == arrows
    assert [m.line for m in statements(d, Message)] == list(range(2, 2 + len(arrows)))


def test_activation_modifiers_and_statements():
    d = parse_text("sequenceDiagram\nA->>+B: call\nB-->>-A: back\nactivate A\ndeactivate A\nA->>()B: c\n")
    assert d.errors == []
    call, back, central = statements(d, Message)
    assert call.activate_target and not call.deactivate_source
    assert back.deactivate_source and not back.activate_target
    assert central.central_target
    assert [(a.actor, a.active, a.line) for a in statements(d, Activation)] == [("A", True, 4), ("A", False, 5)]


def test_nested_blocks_have_branches_lines_and_end_lines():
    d = parse_text(
        "sequenceDiagram\n"
        "alt ok\n"            # 2
        "  loop retry\n"      # 3
        "    A->>B: x\n"      # 4
        "  end\n"             # 5
        "else failed\n"       # 6
        "  par p1\n"          # 7
        "    A->>B: y\n"      # 8
        "  and p2\n"          # 9
        "    B->>A: z\n"      # 10
        "  end\n"             # 11
        "end\n"               # 12
        "critical c\nA->>B: 1\noption o\nA->>B: 2\nend\nbreak b\nA->>B: 3\nend\n"
        "rect rgb(1,2,3)\nA->>B: 4\nend\nopt q\nA->>B: 5\nend\npar_over po\nA->>B: 6\nend\n"
    )
    assert d.errors == []
    alt = d.statements[0]
    assert isinstance(alt, Block) and alt.kind == "alt" and (alt.line, alt.end_line) == (2, 12)
    assert [(b.keyword, b.label, b.line) for b in alt.branches] == [("alt", "ok", 2), ("else", "failed", 6)]
    loop = alt.branches[0].statements[0]
    assert (loop.kind, loop.label, loop.line, loop.end_line) == ("loop", "retry", 3, 5)
    par = alt.branches[1].statements[0]
    assert [(b.keyword, b.label) for b in par.branches] == [("par", "p1"), ("and", "p2")]
    kinds = [s.kind for s in d.statements[1:]]
    assert kinds == ["critical", "break", "rect", "opt", "par_over"]
    assert d.statements[3].label == "rgb(1,2,3)"
    chains = {m.text: [b.kind for b, _ in chain] for m, chain in d.walk() if isinstance(m, Message)}
    assert chains["x"] == ["alt", "loop"] and chains["z"] == ["alt", "par"]


def test_notes_links_autonumber_title_acc():
    d = parse_text(
        "sequenceDiagram\n"
        "title The title\n"
        "accTitle: Acc title\n"
        "accDescr {\n  multi\n  line\n}\n"
        "autonumber 10 5\n"
        "Note left of A: l\n"
        "note over A,B: both\n"
        "link A: Docs @ https://example.org\n"
        "A->>B: x\n"
    )
    assert d.errors == []
    assert (d.title, d.title_line, d.acc_title) == ("The title", 2, "Acc title")
    assert d.acc_descr == "multi\n  line"
    auto = statements(d, Autonumber)[0]
    assert (auto.start, auto.step, auto.line) == (10, 5, 8)
    assert [(n.placement, n.actors, n.text, n.line) for n in statements(d, Note)] == [
        ("left of", ("A",), "l", 9), ("over", ("A", "B"), "both", 10)]
    link = statements(d, Link)[0]
    assert (link.keyword, link.actor, link.text, link.line) == ("link", "A", "Docs @ https://example.org", 11)


def test_boxes_create_destroy():
    d = parse_text(
        "sequenceDiagram\n"
        "box Aqua Control plane\n"
        "  participant S\n"
        "  participant K\n"
        "end\n"
        "S->>K: x\n"
        "create participant P\n"
        "S->>P: make\n"
        "destroy P\n"
        "P->>S: bye\n"
    )
    assert d.errors == []
    (box,) = d.boxes
    assert (box.label, box.color, box.line, box.end_line, box.participants) == ("Control plane", "Aqua", 2, 5, ["S", "K"])
    p = d.participant("P")
    assert (p.created_line, p.destroyed_line) == (7, 9)
    assert d.participant("S").box == "Control plane"


def test_line_numbers_count_from_the_original_top():
    text = (
        "---\n"                      # 1
        "title: t\n"                 # 2
        "---\n"                      # 3
        "%%{init: {'theme': 'dark'}}%%\n"  # 4
        "%% a comment\n"             # 5
        "\n"                         # 6
        "sequenceDiagram\n"          # 7
        "  %% another\n"             # 8
        "  A->>B: x\n"               # 9
        "  A->>B\n"                  # 10 error
    )
    d = parse_text(text)
    assert d.header_line == 7
    assert d.front_matter == "title: t" and d.front_matter_line == 1
    assert [(x.line, x.text) for x in d.directives] == [(4, "%%{init: {'theme': 'dark'}}%%")]
    assert (5, "%% a comment") in d.comments and (8, "%% another") in d.comments
    assert statements(d, Message)[0].line == 9
    assert [e.line for e in d.errors] == [10]


def test_crlf_lone_cr_bom_and_tabs_keep_lines():
    for nl in ("\r\n", "\r", "\n"):
        d = parse_text("\ufeffsequenceDiagram" + nl + "\tA\t->>\tB:\tx" + nl + nl + "\tB->>A: y" + nl)
        assert d.errors == []
        assert [(m.source, m.target, m.text, m.line) for m in statements(d, Message)] == [
            ("A", "B", "x", 2), ("B", "A", "y", 4)]


def test_text_with_hash_semicolon_and_entities():
    d = parse_text("sequenceDiagram\nA->>B: cost #35; 5; B->>A: next\nA->>B: see #12 later\n")
    assert d.errors == []
    assert [(m.text, m.line) for m in statements(d, Message)] == [("cost #35; 5", 2), ("next", 2), ("see", 3)]


def test_keyword_prefixed_names():
    d = parse_text("sequenceDiagram\nloops->>notes: x\nendpoint->>boxer: y\n")
    assert d.errors == [] and [p.id for p in d.participants] == ["loops", "notes", "endpoint", "boxer"]
    bad = parse_text("sequenceDiagram\nend-user->>B: x\n")
    assert not bad.valid and "end-user" in bad.errors[0].hint


def test_spaces_after_a_name_are_not_part_of_it():
    # Python 3.11.0-3.11.4 read `Alice  ->>` as `Alice  ` with a possessive group (CPython gh-106052).
    text = "sequenceDiagram\nAlice  ->>Bob  : hi\nNote over Alice Cooper  ,Bob: n\nactivate Alice Cooper  \n"
    for d in (parse_text(text), parse_text(text.replace("\n", ";\n", 1))):  # the plain reader, the full parser
        assert d.errors == []
        assert [(m.source, m.target) for m in statements(d, Message)] == [("Alice", "Bob")]
        assert [n.actors for n in statements(d, Note)] == [("Alice Cooper", "Bob")]
        assert [a.actor for a in statements(d, Activation)] == ["Alice Cooper"]


def test_directives_and_front_matter_are_recorded_not_applied():
    d = parse_text("---\nconfig:\n  theme: forest\n---\n%%{init: {\"securityLevel\": \"loose\"}}%%\n"
                   "sequenceDiagram\nA->>B: x\n")
    assert d.valid
    assert "theme: forest" in d.front_matter
    assert d.directives[0].text.startswith("%%{init")
    assert statements(d, Message)[0].line == 7
