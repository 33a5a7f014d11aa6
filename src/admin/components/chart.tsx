/**
 * Charts drawn on the server as SVG: no script, nothing to load, and they print. Each is an image
 * with a title and a one-sentence summary for screen readers (role="img", <title>, <desc>); the
 * figures themselves are in the table the page shows beside it. Colours come from admin.css
 * (the panel's CSP allows no inline styles).
 */

export interface Point {
  /** The period, `YYYY-MM-DD`. */
  label: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 56;
const BOTTOM = 24;
const TOP = 10;

/** A round step for about four gridlines up to `max`: 1, 2 or 5 times a power of ten. */
function niceStep(max: number): number {
  if (max <= 0) return 1;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough)!;
}

const compact = (n: number) => (Math.abs(n) >= 1000 ? `${Math.round(n / 100) / 10}k` : String(Math.round(n * 100) / 100));

/**
 * Bars per period, with a y axis of round gridlines and a few period labels along the bottom. Each
 * bar's tooltip shows its value as `format` writes it (an amount with its currency's decimals), else
 * the number.
 */
export function BarChart(props: { id: string; title: string; summary: string; points: Point[]; format?: (value: number) => string; counts?: boolean }) {
  const { points } = props;
  const max = Math.max(0, ...points.map((p) => p.value));
  const step = props.counts ? Math.max(1, niceStep(max)) : niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = WIDTH - LEFT - 8;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / Math.max(1, points.length);
  const y = (v: number) => TOP + plotH - (Math.max(0, v) / top) * plotH;
  const every = Math.max(1, Math.ceil(points.length / 8));
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  return (
    <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${props.id}-title ${props.id}-desc`}>
      <title id={`${props.id}-title`}>{props.title}</title>
      <desc id={`${props.id}-desc`}>{props.summary}</desc>
      {ticks.map((t) => (
        <g class="tick">
          <line x1={LEFT} x2={WIDTH - 8} y1={y(t)} y2={y(t)} />
          <text x={LEFT - 6} y={y(t) + 4} text-anchor="end">
            {compact(t)}
          </text>
        </g>
      ))}
      {points.map((p, i) => (
        <rect class="bar" x={LEFT + i * slot + slot * 0.15} width={Math.max(1, slot * 0.7)} y={y(p.value)} height={TOP + plotH - y(p.value)}>
          <title>{`${p.label}: ${props.format ? props.format(p.value) : p.value}`}</title>
        </rect>
      ))}
      {points.map((p, i) =>
        i % every === 0 ? (
          <text class="label" x={LEFT + i * slot + slot / 2} y={HEIGHT - 6} text-anchor="middle">
            {p.label.slice(5)}
          </text>
        ) : null,
      )}
    </svg>
  );
}

/** A small line of the values, for a dashboard card; its summary says what it shows. */
export function Sparkline(props: { summary: string; values: number[] }) {
  const w = 200;
  const h = 40;
  const max = Math.max(0, ...props.values);
  const n = Math.max(1, props.values.length - 1);
  const points = props.values.map((v, i) => `${((i / n) * w).toFixed(1)},${(h - 2 - (max ? (v / max) * (h - 4) : 0)).toFixed(1)}`).join(' ');
  return (
    <svg class="sparkline" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={props.summary} preserveAspectRatio="none">
      <polyline points={points} />
    </svg>
  );
}
