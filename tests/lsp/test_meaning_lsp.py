"""The meaning rules through the real server: the squiggle (a published
diagnostic with the code and both sides named), the hover that shows the
words that decided, the code lens, and no quick-fix where none is safe."""

from __future__ import annotations

import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import line_of, open_doc, start, until

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "meaning"))
from make_meaning import build  # the fixture builder lives beside its data


async def _hover_text(client: LanguageClient, uri: str, line: int) -> str:
    """The hover's text on a claim's line."""
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                          position=types.Position(line=line, character=2)))
    assert hover is not None
    return hover.contents.value if hasattr(hover.contents, "value") else str(hover.contents)


async def test_meaning_diagnostics_hover_and_no_fix(client: LanguageClient, tmp_path: Path):
    root = build(tmp_path / "ws")
    await start(client, root)
    path = root / "drafts" / "meaning.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    diags = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "context-negates"] and
                        client.diagnostics[u], what="the meaning diagnostics")
    by_line = {(d.code, d.range.start.line): d for d in diags}

    def at(line: int) -> list:
        """The diagnostics on a line of the draft (none: no squiggle)."""
        return [x for x in diags if x.range.start.line == line]

    returned = line_of(text, "Opened items can be returned.")
    d = by_line[("contradiction", returned)]
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.message == "claim says returned; quote says cannot be returned"
    # the related information points at the quote in the source
    assert d.related_information and d.related_information[0].location.uri.endswith("handbook.md")

    fahrenheit = line_of(text, "-18 °F until dispatch")
    assert by_line[("number-mismatch", fahrenheit)].message == "claim says -18 °F; quotes say -18 °C"

    # context-negates squiggles the claim (its LSP range) and quotes the sentence
    warranty = line_of(text, "The warranty covers accidental damage.")
    ctx = by_line[("context-negates", warranty)]
    assert "It is false that the warranty covers accidental damage." in ctx.message

    # licence names are not quantities: no diagnostic on the Apache claim
    apache = line_of(text, "Under Apache 2.0")
    assert not at(apache)

    # the hover names the words that decided
    value = await _hover_text(client, u, returned)
    assert "`contradiction`" in value and "cannot be returned" in value

    # no quick-fix is offered for a meaning failure
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=u),
            range=types.Range(start=types.Position(line=returned, character=0),
                              end=types.Position(line=returned, character=5)),
            context=types.CodeActionContext(diagnostics=[d], only=[types.CodeActionKind.QuickFix]),
        ))
    assert not [a for a in (got or []) if a.kind == types.CodeActionKind.QuickFix]

    # the code lens says why
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=u)))
    titles = [lens.command.title for lens in lenses if lens.command]
    assert any(t.startswith("contradiction: claim says returned") for t in titles)

    # the rules added later, through the same server: a quantifier as a bound, a name in another's place
    both = line_of(text, "when both of its input files are empty")
    assert by_line[("contradiction", both)].message == "claim says both of its input; quote says one of the files"
    solaris = line_of(text, "sub-second timeouts on Solaris")
    assert by_line[("unsupported-claim", solaris)].message.startswith(
        "the claim says Solaris where its quote says macOS")
    value = await _hover_text(client, u, solaris)
    assert "Not supported" in value and "Solaris where its quote says macOS" in value
    # two names the other way round, and the same two in the passive, which swaps them back
    swapped = line_of(text, "The --dry-run option now overrides --force.")
    assert by_line[("unsupported-claim", swapped)].message.startswith(
        "the claim says --dry-run option now overrides --force where its quote says --force option now overrides")
    value = await _hover_text(client, u, swapped)
    assert "Not supported" in value and "--force option now overrides --dry-run" in value.replace("\\", "")  # Markdown escapes
    passive = line_of(text, "--dry-run is now overridden by the --force option.")
    assert not at(passive)
    # and a correct claim of the same source has no diagnostic
    one_of = line_of(text, "when one of its input files is empty")
    assert not at(one_of)

    # a quoted fragment read in its sentence: no squiggle; words from another sentence do not count
    control = line_of(text, "Owning 50% or more of the outstanding shares counts as control.")
    assert not at(control)
    other = line_of(text, "Returns inspected at the Leeds depot are paid by bank transfer.")
    assert by_line[("unsupported-claim", other)].message.endswith("missing: returns, inspected, leeds, depot")
    at_most = line_of(text, "Owning at most 50% of the outstanding shares")
    assert by_line[("contradiction", at_most)].message == "claim says at most; quote says or more"
    third = line_of(text, "less than one third of the aggregate")
    assert by_line[("number-mismatch", third)].message == "claim says one third; quotes say one half"
    wasnt = line_of(text, "The escaping bug was fixed in 3.81.")
    assert "but wasn't, for some reason." in by_line[("context-negates", wasnt)].message
    value = await _hover_text(client, u, wasnt)
    assert "`context-negates`" in value and "but wasn" in value
    assert not at(line_of(text, "The escaping bug was not fixed in 3.81."))

    # a rate is one unit however it is written, and no name: km/h backed by kilometres per hour, mph not
    kmh = line_of(text, "The tram's top speed is 70 km/h.")
    assert not at(kmh)
    mph = line_of(text, "The tram's top speed is 70 mph.")
    assert by_line[("number-mismatch", mph)].message == "claim says 70 mph; quotes say 70 kilometres per hour"
    value = await _hover_text(client, u, mph)
    assert "`number-mismatch`" in value and "70 kilometres per hour" in value
    # a decade is backed by a year in it
    assert not at(line_of(text, "built in the 1930s."))
    # a converted figure to its own precision, and a temperature in the other scale: no squiggle
    assert not at(line_of(text, "The riverside trail is 8 km long."))
    assert not at(line_of(text, "water boils at 100 °C."))
    boils = line_of(text, "water boils at 110 °C.")
    assert by_line[("number-mismatch", boils)].message == "claim says 110 °C; quotes say 212 °F"
    # a cut against a raise: the hover names both words
    cut = line_of(text, "The transit bank cut its lending rate")
    assert by_line[("contradiction", cut)].message == "claim says cut; quote says raised"
    value = await _hover_text(client, u, cut)
    assert "`contradiction`" in value and "raised" in value
    # "free of charge" is without a charge: the claim that states the charge is squiggled, its negation not
    charges = line_of(text, "The depot school charges tuition.")
    assert by_line[("contradiction", charges)].message == "claim says charges; quote says free of charge"
    assert not at(line_of(text, "The depot school does not charge tuition."))
    assert by_line[("number-mismatch", line_of(text, "built in the 1940s."))].message == \
        "claim says 1940s; quotes say 1937"
    # a time of day and a share in words: 7 am is 7:00 in the morning, 7 pm is not; about half is 51 %
    assert not at(line_of(text, "The depot canteen opens at 7 am."))
    evening = line_of(text, "The depot canteen opens at 7 pm.")
    assert by_line[("number-mismatch", evening)].message == "claim says 7 pm; quotes say 7:00 in the morning"
    value = await _hover_text(client, u, evening)
    assert "`number-mismatch`" in value and "7:00 in the morning" in value
    assert not at(line_of(text, "About half of all riders are season"))
    # an amount the quote gives in another unit is found by the score: no squiggle at all
    assert not at(line_of(text, "The depot roof panels yield 1.2 MW."))
    halved = line_of(text, "Rider numbers halved over the decade.")
    assert by_line[("contradiction", halved)].message == "claim says halved; quote says rose"
    # permission against a prohibition, "optional" against "must", a minimum against a maximum, a refusal
    lorries = line_of(text, "Heavy lorries are allowed to cross the depot bridge.")
    assert by_line[("contradiction", lorries)].message == "claim says allowed to cross; quote says not cross"
    value = await _hover_text(client, u, lorries)
    assert "`contradiction`" in value and "allowed to cross" in value
    assert not at(line_of(text, "Heavy lorries are not allowed to cross"))
    assert by_line[("contradiction", line_of(text, "Helmets are optional for riders"))].message == \
        "claim says optional; quote says must"
    assert not at(line_of(text, "Helmets are mandatory for riders"))
    assert by_line[("contradiction", line_of(text, "The minimum stay in the depot hostel"))].message == \
        "claim says minimum stay; quote says a maximum of"
    assert by_line[("contradiction", line_of(text, "The council accepted the depot proposal."))].message == \
        "claim says accepted; quote says declined"
    assert not at(line_of(text, "The council turned down the depot"))
    # knots and hectares convert, a part of a month is its days, "costs nothing" is free
    ferry = line_of(text, "The depot ferry cruises at 20 mph.")
    assert by_line[("number-mismatch", ferry)].message == "claim says 20 mph; quotes say 20 knots"
    assert not at(line_of(text, "The depot ferry cruises at about 23 mph."))
    assert not at(line_of(text, "The depot yard covers 40 hectares."))
    assert not at(line_of(text, "took place in early March 2022."))
    late = line_of(text, "took place in late March 2022.")
    assert by_line[("number-mismatch", late)].message == "claim says late March 2022; quotes say 6 March 2022"
    value = await _hover_text(client, u, late)
    assert "`number-mismatch`" in value and "6 March 2022" in value
    assert by_line[("contradiction", line_of(text, "The depot charges a fee for parking."))].message == \
        "claim says charges; quote says costs nothing"
    # a comparison the other way round with the same word, a bound on a whole count from the other side
    west = line_of(text, "The west platform is shorter than the east platform.")
    assert by_line[("contradiction", west)].message == \
        "claim says shorter than the east platform; quote says shorter than the west platform"
    value = await _hover_text(client, u, west)
    assert "`contradiction`" in value and "shorter than the west platform" in value
    assert not at(line_of(text, "The west platform is longer than"))
    assert not at(line_of(text, "Depot stairs with more than three steps"))
    # "not ... until" says when (no squiggle); a rise against "held steady" (a squiggle)
    assert not at(line_of(text, "are not admitted until the interval."))
    raised = line_of(text, "The transit bank raised its deposit rate to 3%.")
    assert by_line[("contradiction", raised)].message == "claim says raised; quote says steady"
    # a claim that is a verbatim part of its quote is read as it reads there
    assert "has been debunked" in by_line[("context-negates", line_of(text, "The depot will close."))].message
    assert by_line[("contradiction", line_of(text, "The council approved the new depot."))].message.startswith(
        "claim says approved; quote says declined")
    # a bound backed by an amount within it: no squiggle; the other way round, a number-mismatch
    assert not at(line_of(text, "The summit station is over 2,000 m high."))
    assert by_line[("number-mismatch", line_of(text, "The summit station is under 2,000 m high."))].message == \
        "claim says 2,000 m; quotes say 2,971 m"
    second = line_of(text, "The second edition of the timetable appeared in 2019.")
    assert by_line[("unsupported-claim", second)].message.startswith("the claim says second where its quote says first")
    only = line_of(text, "Season tickets are sold to students only.")
    assert by_line[("contradiction", only)].message == "claim says students only; quote says students and pensioners"
    # how often in words; a limit names its amount; a negation and the other side of a bound cancel; hot/cold
    assert not at(line_of(text, "The depot smoke alarms are tested once a month."))
    assert by_line[("number-mismatch", line_of(text, "The depot smoke alarms are tested twice a month."))].message \
        == "claim says twice a month; quotes say monthly"
    assert not at(line_of(text, "Depot bins are emptied every two weeks."))
    assert by_line[("number-mismatch", line_of(text, "Depot visitors may bring up to 400 cigarettes"))].message == \
        "claim says 400; quotes say 200"
    assert not at(line_of(text, "Parcels over 20 kg are not accepted at the depot counter."))
    hot = line_of(text, "The depot tyre pressure should be checked when the tyres are hot.")
    assert by_line[("contradiction", hot)].message == "claim says hot; quote says cold"
    value = await _hover_text(client, u, hot)
    assert "`contradiction`" in value and "cold" in value
    # a bound met in another unit; a bound on a year met by a decade
    assert not at(line_of(text, "The depot eclipse totality lasted just over two minutes."))
    assert by_line[("number-mismatch", line_of(text, "The depot eclipse totality lasted over ten minutes."))].message \
        == "claim says ten minutes; quotes say 2 minutes and 10 seconds"
    assert not at(line_of(text, "The depot orchard's trees were planted before 1950."))
    assert by_line[("number-mismatch", line_of(text, "The depot orchard's trees were planted after 1950."))].message \
        == "claim says 1950; quotes say 1930s"
    # a quote that says it both ways under two conditions, a list of cases, "no X" before a new noun phrase:
    # no squiggle on the correct claims, a contradiction on their twins
    assert not at(line_of(text, "When the depot log file does not exist yet it is created"))
    assert by_line[("contradiction", line_of(text, "When the depot log file does exist, it is not opened."))]
    assert not at(line_of(text, "The depot gate returns 0 when a badge is accepted"))
    gate = line_of(text, "The depot gate returns 1 when a badge was read.")
    assert by_line[("contradiction", gate)].message == "claim says badge; quote says no badge"
    assert not at(line_of(text, "With no ticket number the waiting list is searched"))
    # a command-line option is an identifier: the one the cited chunk names, by case
    assert not at(line_of(text, "The depot tool's -r option reads all files"))
    big_r = line_of(text, "The depot tool's -R option reads all files")
    assert by_line[("number-mismatch", big_r)].message == "claim says -R; source says -r, --recursive"
    value = await _hover_text(client, u, big_r)
    assert "`number-mismatch`: claim says \\-R; source says \\-r, \\-\\-recursive" in value  # Markdown-escaped
    assert not at(line_of(text, "unless the --norc option is used."))
    assert by_line[("number-mismatch", line_of(text, "unless the --noprofile option is used."))].message == \
        "claim says --noprofile; source says --norc"
    # "whether or not" denies neither alternative
    assert not at(line_of(text, "whether or not it is published as a printed book."))
    assert not at(line_of(text, "whether it is published as a printed book or not."))
    assert by_line[("contradiction", line_of(text, "The depot library does not lend textual works"))].message == \
        "claim says not lend; quote says lends"
    # a file's path is an identifier of the cited chunk
    assert not at(line_of(text, "are kept in /etc/depot/keys-removed.gpg."))
    assert by_line[("number-mismatch", line_of(text, "are kept in /etc/depot/keys.gpg."))].message == \
        "claim says /etc/depot/keys.gpg; source says /etc/depot/keys-removed.gpg"
    # "no one" is "nobody"
    assert not at(line_of(text, "No one boards trams without a ticket."))
    assert by_line[("contradiction", line_of(text, "Everyone boards trams without a ticket."))]
    # "one" is a count where the quotes count the same thing
    assert by_line[("number-mismatch", line_of(text, "Each tram crew has one driver."))].message == \
        "claim says one driver; quotes say two"
    assert not at(line_of(text, "Each tram crew has at least one driver."))
    assert by_line[("number-mismatch", line_of(text, "The depot freezer runs at -40 °C."))].message == \
        "claim says -40 °C; quotes say -40 °F"
    # "or newer" bounds releases: a version
    assert not at(line_of(text, "Building the depot tool from git needs flex and bison 3.0 or newer."))
    assert by_line[("number-mismatch", line_of(text, "requires flex and version 2.7 or later of bison."))].message \
        == "claim says version 2.7; source says version 3.0"
    # a program named like a file is held by its source's title (the README of invoke-rc.d), another is not
    # a comparison sign bounds its number; "used to" agrees with the past; a bound in other words is the quote's
    assert not at(line_of(text, "pressure settings of 10 or higher."))
    assert by_line[("contradiction", line_of(text, "pressure settings of 10 or lower."))].message == \
        "claim says or lower; quote says >=10"
    assert not at(line_of(text, "In release 3 the depot badge variable was named"))
    assert by_line[("contradiction", line_of(text, "The depot badge variable is named DEPOT_BADGE_ID."))].message \
        == "claim says named; quote says used to be named"
    assert not at(line_of(text, "should hold no fewer than three consecutive digits"))
    assert by_line[("number-mismatch", line_of(text, "should hold no fewer than four consecutive digits"))].message \
        == "claim says four; quotes say 3"
    # milliseconds are time; a negated bound is backed by its own amount only; a bare release; a year as '06
    assert not at(line_of(text, "cannot be held open for longer than 0.2 seconds."))
    assert by_line[("number-mismatch", line_of(text, "cannot be held open for longer than 200 microseconds."))] \
        .message == "claim says 200 microseconds; quotes say 200 millisecond"
    assert not at(line_of(text, "Depot gates older than 3.19 did not log"))
    assert ("number-mismatch", line_of(text, "Depot gates older than 3.18 did not log")) in by_line
    assert not at(line_of(text, "opened its doors in November 2006."))
    assert by_line[("number-mismatch", line_of(text, "opened its doors in November 2007."))].message == \
        "claim says November 2007; quotes say November 2006"
    # a bound in a condition is not stated; a release from which on or up to which; older releases are earlier
    assert not at(line_of(text, "Depot badge labels can be at most 16 characters long."))
    assert by_line[("contradiction", line_of(text, "Depot badge labels must be at least 16 characters long."))] \
        .message == "claim says at least; quote says at most"
    assert not at(line_of(text, "Up to release 1.42, the depot gate kept its own log."))
    assert by_line[("contradiction", line_of(text, "Beginning with release 1.42, the depot gate keeps"))].message \
        == "claim says Beginning with; quote says and earlier"
    assert not at(line_of(text, "Depot gates predating 4.6 use one stream."))
    assert by_line[("contradiction", line_of(text, "Depot gates newer than 4.6 use one stream."))].message == \
        "claim says newer than; quote says older than"
    # a list's unit; binary multiples; counts in compounds and pairs (the quotes' evidence)
    assert not at(line_of(text, "Depot timers can tick every 4 milliseconds."))
    assert by_line[("number-mismatch", line_of(text, "Depot timers can tick every 5 milliseconds."))].message == \
        "claim says 5 milliseconds; quotes say 0.01, 0.004, 0.001 seconds"
    assert not at(line_of(text, "The depot badge buffer holds 8 KiB."))
    assert ("number-mismatch", line_of(text, "The depot badge buffer holds 8 MiB.")) in by_line
    assert not at(line_of(text, "Depot parcel codes start with a 2-digit number."))
    assert not at(line_of(text, "Each depot locker comes with two keys."))
    assert by_line[("number-mismatch", line_of(text, "Each depot locker comes with three keys."))].message == \
        "claim says three; quotes say a pair of"
    # every seven days is once a week (one rate, meaning/frequency.py); "more than one" counts; rounded up against rounded down
    assert not at(line_of(text, "Servicing most depot vans every seven days"))
    assert by_line[("number-mismatch", line_of(text, "Servicing most depot vans every ten days"))].message == \
        "claim says every ten days; quotes say once a week"
    assert not at(line_of(text, "only matters where the depot has two or more shifts."))
    assert ("number-mismatch", line_of(text, "only matters where the depot has three or more shifts.")) in by_line
    assert by_line[("contradiction", line_of(text, "Each depot fare is internally rounded down"))].message == \
        "claim says rounded down; quote says rounded up"
    # a condition after its statement is its own clause
    assert not at(line_of(text, "the depot kiosk falls back to the paper timetable."))
    assert by_line[("contradiction", line_of(text, "the depot kiosk cannot fall back to the paper timetable."))] \
        .message == "claim says cannot fall back; quote says back"
    assert not at(line_of(text, "Even when forced, invoke-rc.d always calls"))
    assert by_line[("number-mismatch", line_of(text, "Even when forced, update-rc.d always calls"))].message == \
        "claim says update-rc.d; source says policy-rc.d"
