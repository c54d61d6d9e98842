"""PDF furniture: running headers, footers and bare page numbers repeated across
pages are left out of the parsed text, and so of every chunk; page offsets stay
exact (each page's text starts where `pages` says, and the chunker's invariant holds)."""

from __future__ import annotations

import io

from cairn.core import chunking
from cairn.sources import parse_bytes
from cairn.sources.pdf import strip_furniture

BODIES = [
    "Deliveries are made on weekdays between 8 and 18 o'clock.",
    "A damaged parcel is reported within 14 days of delivery.",
    "Refunds are paid to the original payment method.",
    "Drivers wait up to 10 minutes at the address.",
]


def _pdf(pages: list[list[str]]) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for lines in pages:
        pdf.add_page()
        for line in lines:
            pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    buf = io.BytesIO()
    pdf.output(buf)
    return buf.getvalue()


def test_headers_and_page_numbers_are_left_out_of_the_chunks():
    data = _pdf([["Acme Delivery Handbook", body, str(n)] for n, body in enumerate(BODIES, start=1)])
    doc = parse_bytes("sources/handbook.pdf", data)
    assert doc.text.split("\f") == BODIES
    assert doc.pages == [sum(len(b) + 1 for b in BODIES[:i]) for i in range(len(BODIES))]
    chunks = chunking.chunk_document("sources/handbook.pdf", doc.text, doc.pages)
    assert [c.text for c in chunks] == BODIES
    for c in chunks:
        assert doc.text[c.start:c.end] == c.text
    assert [c.page for c in chunks] == [1, 2, 3, 4]
    assert doc.lineage.startswith("pdf-pypdf/3")


def test_a_running_header_with_the_page_number_in_it():
    pages = [f"Chapter 2: Delivery {n + 3}\n{body}" for n, body in enumerate(BODIES)]
    out, dropped = strip_furniture(pages)
    assert out == BODIES and dropped == 4


def test_text_that_only_looks_repeated_on_few_pages_stays():
    # two pages are too few to tell furniture from text; a line on one page is text
    two = ["Acme\nFirst body.\n1", "Acme\nSecond body.\n2"]
    assert strip_furniture(two) == (two, 0)
    pages = ["Summary\nA body line.", "Other start\nMore text.\n12 apples were counted", "Third\nEnd."]
    assert strip_furniture(pages) == (pages, 0)
