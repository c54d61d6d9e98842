"""The HTML report's two charts as inline SVG text: citation validity and
faithfulness per answer, and the claims' support scores against the threshold.

Each chart has a role, a title and a description for screen readers, and a
`<title>` on every bar; every text drawn from a draft (an answer's path) is
escaped here, since the result is inserted into the page as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

W, H = 560, 180
PAD_L, PAD_B, PAD_T = 36, 28, 10
PLOT_W, PLOT_H = W - PAD_L - 8, H - PAD_B - PAD_T
MAX_BARS = 60  # above this many answers, a histogram instead of a bar each


def _frame(chart_id: str, title: str, desc: str, body: list[str], x_label: str) -> str:
    axis = [
        f'<line class="axis" x1="{PAD_L}" y1="{PAD_T + PLOT_H}" x2="{PAD_L + PLOT_W}" y2="{PAD_T + PLOT_H}"/>',
        f'<line class="axis" x1="{PAD_L}" y1="{PAD_T}" x2="{PAD_L}" y2="{PAD_T + PLOT_H}"/>',
        f'<text class="label" x="{PAD_L + PLOT_W / 2:.1f}" y="{H - 4}" text-anchor="middle">{escape(x_label)}</text>',
    ]
    return (
        f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-labelledby="{chart_id}-t {chart_id}-d"'
        f' xmlns="http://www.w3.org/2000/svg"><title id="{chart_id}-t">{escape(title)}</title>'
        f'<desc id="{chart_id}-d">{escape(desc)}</desc>' + "".join(axis + body) + "</svg>"
    )


def _y_ticks(top: float, fmt: Callable[[float], str]) -> list[str]:
    out = []
    for frac in (0.0, 0.5, 1.0):
        y = PAD_T + PLOT_H * (1 - frac)
        out.append(f'<text class="tick" x="{PAD_L - 4}" y="{y + 4:.1f}" text-anchor="end">{escape(fmt(top * frac))}</text>')
        if frac:
            out.append(f'<line class="grid" x1="{PAD_L}" y1="{y:.1f}" x2="{PAD_L + PLOT_W}" y2="{y:.1f}"/>')
    return out


def validity_chart(per_answer: list[tuple[str, float | None, bool]]) -> str:
    """One bar per answer (its citation validity; green when faithful), or for
    many answers a histogram of validity with the faithful ones stacked apart."""
    faithful = sum(f for _, _, f in per_answer)
    desc = (f"{len(per_answer)} answers, {faithful} faithful. An answer is faithful only when every one"
            " of its claims is verified, so a bar below 100% is never faithful.")
    body = _y_ticks(1.0, lambda v: f"{v:.0%}")
    if not per_answer:
        return _frame("chart-validity", "Citation validity per answer", "No answers.", body, "answers")
    if len(per_answer) <= MAX_BARS:
        step = PLOT_W / len(per_answer)
        for i, (path, validity, ok) in enumerate(per_answer):
            v = validity or 0.0
            h = max(PLOT_H * v, 1.0)
            x = PAD_L + i * step + step * 0.15
            cls = "bar ok" if ok else "bar bad"
            label = f"{path}: validity {'n/a' if validity is None else f'{validity:.1%}'}, {'faithful' if ok else 'not faithful'}"
            body.append(f'<rect class="{cls}" x="{x:.1f}" y="{PAD_T + PLOT_H - h:.1f}" width="{step * 0.7:.1f}"'
                        f' height="{h:.1f}"><title>{escape(label)}</title></rect>')
        return _frame("chart-validity", "Citation validity per answer", desc, body, "answers (green: faithful)")
    bins = [[0, 0] for _ in range(11)]  # 0-9%, ..., 90-99%, 100%
    for _, validity, ok in per_answer:
        b = 10 if (validity or 0) >= 1 else int((validity or 0) * 10)
        bins[b][0 if ok else 1] += 1
    top = max(a + b for a, b in bins) or 1
    body = _y_ticks(top, lambda v: f"{v:.0f}")
    step = PLOT_W / len(bins)
    for i, (good, bad) in enumerate(bins):
        x = PAD_L + i * step + step * 0.1
        name = "100%" if i == 10 else f"{i * 10}-{i * 10 + 9}%"
        y: float = PAD_T + PLOT_H
        for count, cls, what in ((bad, "bar bad", "not faithful"), (good, "bar ok", "faithful")):
            if not count:
                continue
            h = PLOT_H * count / top
            y -= h
            body.append(f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{step * 0.8:.1f}" height="{h:.1f}">'
                        f"<title>{count} answers {what}, validity {name}</title></rect>")
        body.append(f'<text class="tick" x="{x + step * 0.4:.1f}" y="{PAD_T + PLOT_H + 12}" text-anchor="middle">'
                    f"{i * 10}</text>")
    return _frame("chart-validity", "Answers by citation validity", desc, body, "citation validity, % (green: faithful)")


def score_chart(scores: list[float], threshold: float | None) -> str:
    """A histogram of support scores in twenty bins, the threshold as a dashed line."""
    nb = 20
    bins = [0] * nb
    for s in scores:
        bins[min(nb - 1, max(0, int(s * nb)))] += 1
    top = max(bins) or 1
    body = _y_ticks(top, lambda v: f"{v:.0f}")
    step = PLOT_W / nb
    for i, count in enumerate(bins):
        lo = i / nb
        below = threshold is not None and lo + 1 / nb <= threshold
        h = PLOT_H * count / top
        x = PAD_L + i * step + step * 0.1
        body.append(f'<rect class="bar {"bad" if below else "ok"}" x="{x:.1f}" y="{PAD_T + PLOT_H - h:.1f}"'
                    f' width="{step * 0.8:.1f}" height="{h:.1f}"><title>{count} claims scored'
                    f" {lo:.2f} to {lo + 1 / nb:.2f}</title></rect>")
        if i % 5 == 0:
            body.append(f'<text class="tick" x="{PAD_L + i * step:.1f}" y="{PAD_T + PLOT_H + 12}" text-anchor="middle">'
                        f"{lo:.2f}</text>")
    desc = f"{len(scores)} claims with a support score."
    if threshold is not None:
        x = PAD_L + PLOT_W * threshold
        body.append(f'<line class="threshold" x1="{x:.1f}" y1="{PAD_T}" x2="{x:.1f}" y2="{PAD_T + PLOT_H}"/>')
        body.append(f'<text class="label" x="{x + 4:.1f}" y="{PAD_T + 10}">threshold {threshold:.2f}</text>')
        n_below = sum(s < threshold for s in scores)
        desc += f" {n_below} score below the threshold {threshold:.2f}."
    return _frame("chart-scores", "Support scores against the threshold", desc, body, "support score")
