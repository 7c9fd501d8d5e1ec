// The OCR bench set: UI screenshots, small print, charts, forms, articles and dark dashboards,
// drawn as SVG from a fixed seed and rendered with librsvg (DejaVu fonts). Every <text> is one
// expected line; nothing here knows which engine reads it. Same seed, same images, byte for byte.
import { renderSvg } from '@saccade/image';

export const BENCH_SEED = 20_251_123;
export const SCENES_PER_KIND = 4;

/** mulberry32: a small, fast, seeded generator of floats in [0, 1). */
function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (low, high) => low + Math.floor(next() * (high - low + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const sample = (list, count) => {
    const pool = [...list];
    const out = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
    return out;
  };
  return { next, int, pick, sample, chance: (p) => next() < p };
}

const escape = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
// Average advance per character, in ems, of the DejaVu faces (for layout only: wide estimates).
const ADVANCE = { 'DejaVu Sans': 0.62, 'DejaVu Sans Condensed': 0.56, 'DejaVu Sans Mono': 0.61, 'DejaVu Serif': 0.62 };
const textWidth = (text, size, family = 'DejaVu Sans', weight = 'normal') => text.length * size * ADVANCE[family] * (weight === 'bold' ? 1.08 : 1);
const thousands = (value) => value.toLocaleString('en-US');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PEOPLE = ['Dana Ruiz', 'Omar Haddad', 'Lena Fischer', 'Kenji Mori', 'Ada Okafor', 'Marek Nowak', 'Priya Nair', 'Sam Keller'];

/** One text line of a scene: what is drawn, and what a reader should get. */
function text(line, x, y, { size = 14, color = '#1f2328', family = 'DejaVu Sans', weight = 'normal', anchor = 'start', style = 'normal' } = {}) {
  return { text: line, svg: `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="${family}" font-size="${size}" font-weight="${weight}" font-style="${style}" text-anchor="${anchor}" fill="${color}">${escape(line)}</text>` };
}

// An app bar with a title, coloured buttons with white labels, and a row of tabs.
function toolbarScene(random) {
  const width = random.int(560, 760);
  const barHeight = random.int(44, 56);
  const bar = random.pick(['#24292f', '#1f2328', '#0b3d91', '#5a1e8c', '#0f5132', '#7a1f1f']);
  const titleSize = random.int(15, 18);
  const title = random.pick(['Project settings', 'Billing overview', 'Deploy pipeline', 'Team members', 'Inbox (12)', 'Release notes v4.2', 'Customer #48213']);
  const parts = [`<rect width="${width}" height="${barHeight}" fill="${bar}"/>`];
  const lines = [text(title, 16, barHeight / 2 + titleSize * 0.36, { size: titleSize, color: '#ffffff', weight: 'bold' })];
  const fills = ['#1f6feb', '#2da44e', '#cf222e', '#8250df', '#bf3989', '#e36209', '#d29922', '#3fb950', '#0969da', '#6e7781'];
  const labels = ['Save changes', 'Cancel', 'Sign in', 'Create account', 'Upload file', 'Export CSV', 'Delete', 'Share', 'Apply filters', 'Continue to payment', 'Retry', 'Open in editor', 'Download PDF', 'Add to cart', 'Send invite', 'Merge pull request'];
  const buttonSize = random.int(12, 15);
  let x = 16;
  const top = barHeight + random.int(18, 28);
  const buttonHeight = Math.round(buttonSize * 2.3);
  for (const [index, label] of random.sample(labels, random.int(3, 4)).entries()) {
    const buttonWidth = Math.ceil(textWidth(label, buttonSize) + 28);
    if (x + buttonWidth > width - 12) break;
    const fill = random.sample(fills, 4)[index % 4];
    parts.push(`<rect x="${x}" y="${top}" width="${buttonWidth}" height="${buttonHeight}" rx="6" fill="${fill}"/>`);
    lines.push(text(label, x + buttonWidth / 2, top + buttonHeight / 2 + buttonSize * 0.36, { size: buttonSize, color: '#ffffff', anchor: 'middle', weight: random.chance(0.5) ? 'bold' : 'normal' }));
    x += buttonWidth + random.int(10, 16);
  }
  const tabSize = random.int(12, 14);
  const tabTop = top + buttonHeight + random.int(26, 36);
  const tabs = random.sample(['Overview', 'Activity', 'Members', 'Settings', 'Security', 'Integrations', 'Usage', 'Audit log'], 4);
  const selected = random.int(0, tabs.length - 1);
  x = 16;
  for (const [index, tab] of tabs.entries()) {
    const tabWidth = textWidth(tab, tabSize);
    lines.push(text(tab, x, tabTop, { size: tabSize, color: index === selected ? '#0969da' : '#57606a', weight: index === selected ? 'bold' : 'normal' }));
    if (index === selected) parts.push(`<rect x="${x}" y="${tabTop + 8}" width="${tabWidth.toFixed(0)}" height="2" fill="#0969da"/>`);
    x += tabWidth + 28;
  }
  const height = tabTop + 24;
  parts.push(`<rect y="${tabTop + 10}" width="${width}" height="1" fill="#d0d7de"/>`);
  return { width, height, background: '#ffffff', parts, lines };
}

// A settings or status table in small print: labels left, values right-aligned, separators.
function smallPrintScene(random) {
  const width = random.int(380, 520);
  const size = random.int(10, 12);
  const rowHeight = size + random.int(10, 13);
  const background = random.pick(['#ffffff', '#f6f8fa', '#fbfbf8']);
  const header = random.pick(['Storage', 'System status', 'Subscription', 'Build details', 'Account']);
  const rows = [
    ['Storage used', () => `${random.int(2, 480)}.${random.int(0, 9)} GB of 500 GB`],
    ['Last backup', () => `2024-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')} ${String(random.int(0, 23)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}`],
    ['Plan', () => random.pick(['Pro (annual)', 'Team, 12 seats', 'Free tier', 'Enterprise'])],
    ['Region', () => random.pick(['eu-west-1', 'us-east-2', 'ap-south-1', 'sa-east-1'])],
    ['Median latency', () => `${random.int(18, 420)} ms`],
    ['Build', () => `#${random.int(1000, 9999)} (${random.pick(['passed', 'failed', 'queued'])})`],
    ['Version', () => `v${random.int(1, 9)}.${random.int(0, 30)}.${random.int(0, 12)}`],
    ['Uptime', () => `${random.int(95, 99)}.${random.int(10, 99)}%`],
    ['Requests today', () => thousands(random.int(1200, 980_000))],
    ['Owner', () => `${random.pick(['m.kowalski', 'a.okafor', 'dana.r', 'k.mori'])}@example.com`],
    ['Memory', () => `${random.int(1, 7)}.${random.int(0, 9)} / 8 GB`],
    ['Renews on', () => `${random.pick(MONTHS)} ${random.int(1, 28)}, ${random.int(2024, 2026)}`],
  ];
  const chosen = random.sample(rows, random.int(5, 7));
  const parts = [];
  const lines = [text(header, 14, 14 + size + 4, { size: size + 2, weight: 'bold' })];
  let y = 14 + size + 4 + rowHeight;
  for (const [label, value] of chosen) {
    lines.push(text(label, 14, y, { size, color: '#24292f' }));
    lines.push(text(value(), width - 14, y, { size, color: '#57606a', anchor: 'end', family: random.chance(0.3) ? 'DejaVu Sans Mono' : 'DejaVu Sans' }));
    parts.push(`<rect x="14" y="${(y + rowHeight * 0.38).toFixed(1)}" width="${width - 28}" height="1" fill="#d8dee4"/>`);
    y += rowHeight;
  }
  const footer = `Last synced ${random.int(2, 59)} min ago`;
  lines.push(text(footer, 14, y + 4, { size: Math.max(9, size - 1), color: '#8c959f' }));
  return { width, height: Math.round(y + 16), background, parts, lines };
}

// A bar chart: title, y ticks, x categories, values over the bars, a legend.
function chartScene(random) {
  const width = random.int(520, 680);
  const height = random.int(320, 400);
  const title = random.pick(['Monthly revenue (k$)', 'Active users by region', 'Tickets closed per week', 'Energy use (MWh)', 'Orders by channel']);
  const groups = random.pick([['Q1', 'Q2', 'Q3', 'Q4'], ['North', 'South', 'East', 'West'], MONTHS.slice(0, 6), ['Web', 'iOS', 'Android', 'Retail', 'Partners']]);
  const series = random.pick([['2023', '2024'], ['Desktop', 'Mobile'], ['Target', 'Actual']]);
  const colours = random.sample(['#0969da', '#2da44e', '#d29922', '#8250df', '#cf222e', '#1b7c83'], 2);
  const step = random.pick([20, 25, 50, 100, 250]);
  const top = step * 4;
  const tickSize = random.int(10, 11);
  const left = 60;
  const right = width - 20;
  const plotTop = 58;
  const bottom = height - 44;
  const parts = [];
  const lines = [text(title, left, 26, { size: random.int(14, 15), weight: 'bold' })];
  for (let tick = 0; tick <= 4; tick++) {
    const y = bottom - ((bottom - plotTop) * tick) / 4;
    parts.push(`<rect x="${left}" y="${y.toFixed(1)}" width="${right - left}" height="1" fill="${tick === 0 ? '#8c959f' : '#eaeef2'}"/>`);
    lines.push(text(thousands(step * tick), left - 8, y + tickSize * 0.35, { size: tickSize, color: '#57606a', anchor: 'end' }));
  }
  const slot = (right - left) / groups.length;
  const barWidth = Math.min(26, (slot - 16) / 2);
  const values = [];
  for (const [index, group] of groups.entries()) {
    const centre = left + slot * (index + 0.5);
    lines.push(text(group, centre, bottom + 16, { size: tickSize, color: '#57606a', anchor: 'middle' }));
    for (let s = 0; s < 2; s++) {
      const value = Math.round(random.next() * top * 0.9 + top * 0.05);
      const barHeight = ((bottom - plotTop) * value) / top;
      const x = centre - barWidth + s * barWidth;
      parts.push(`<rect x="${x.toFixed(1)}" y="${(bottom - barHeight).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${barHeight.toFixed(1)}" fill="${colours[s]}"/>`);
      values.push({ x: x + (barWidth - 2) / 2, y: bottom - barHeight - 4, value });
    }
  }
  // Value labels on one series only, where they fit (bars side by side would collide).
  for (const { x, y, value } of values.filter((_, index) => index % 2 === 0)) lines.push(text(String(value), x, y, { size: 9 + random.int(0, 1), color: '#24292f', anchor: 'middle' }));
  let legendX = left;
  for (const [index, name] of series.entries()) {
    parts.push(`<rect x="${legendX}" y="38" width="10" height="10" fill="${colours[index]}"/>`);
    lines.push(text(name, legendX + 15, 47, { size: 11, color: '#57606a' }));
    legendX += 15 + textWidth(name, 11) + 20;
  }
  return { width, height, background: '#ffffff', parts, lines };
}

// A sign-up form at low contrast: labels, placeholders in inputs, a disabled button, helper text.
function formScene(random) {
  const width = random.int(380, 460);
  const dark = random.chance(0.25);
  const background = dark ? '#22272e' : random.pick(['#ffffff', '#f6f8fa']);
  const label = dark ? '#768390' : '#6e7781';
  const placeholder = dark ? '#545d68' : random.pick(['#b1b8c0', '#a8b1bb', '#c0c6cc']);
  const border = dark ? '#444c56' : '#d0d7de';
  const fields = random.sample([
    ['Email address', 'you@example.com'],
    ['Full name', 'Jane Appleseed'],
    ['Company', 'Acme Corp.'],
    ['Phone', '+1 (555) 010-2233'],
    ['Password', 'At least 12 characters'],
    ['Website', 'https://example.org'],
    ['Postcode', 'e.g. 10115'],
  ], 3);
  const parts = [];
  const lines = [];
  let y = 30;
  const size = random.int(13, 15);
  for (const [name, hint] of fields) {
    lines.push(text(name, 20, y, { size: 12, color: label }));
    parts.push(`<rect x="20" y="${y + 8}" width="${width - 40}" height="${size + 18}" rx="5" fill="${dark ? '#2d333b' : '#ffffff'}" stroke="${border}"/>`);
    lines.push(text(hint, 30, y + 8 + (size + 18) / 2 + size * 0.36, { size, color: placeholder }));
    y += size + 18 + 36;
  }
  const buttonLabel = random.pick(['Create account', 'Continue', 'Save draft', 'Submit request']);
  const buttonWidth = textWidth(buttonLabel, 14) + 32;
  parts.push(`<rect x="20" y="${y - 14}" width="${buttonWidth.toFixed(0)}" height="34" rx="6" fill="${dark ? '#373e47' : '#eaeef2'}"/>`);
  lines.push(text(buttonLabel, 20 + buttonWidth / 2, y + 7, { size: 14, color: dark ? '#636e7b' : '#8c959f', anchor: 'middle' }));
  const helper = random.pick(['We never share your email.', 'All fields are required.', 'You can change this later.', 'By continuing you accept the terms.']);
  lines.push(text(helper, 20, y + 42, { size: 11, color: dark ? '#636e7b' : '#8c959f' }));
  return { width, height: y + 58, background, parts, lines };
}

// A news card: large heading, meta line, body text, a pull quote, a small caption; mixed faces.
function articleScene(random) {
  const width = random.int(560, 720);
  const family = random.pick(['DejaVu Sans', 'DejaVu Serif']);
  const words = 'the team shipped a faster search index that cuts query time for large projects while memory use stays flat and old links keep working after the move to the new cluster in March'.split(' ');
  const sentence = (length) => {
    const start = random.int(0, words.length - length);
    const line = words.slice(start, start + length).join(' ');
    return line.charAt(0).toUpperCase() + line.slice(1);
  };
  const headingSize = random.int(24, 30);
  const heading = random.pick(['Search is 3x faster', 'Q3 results beat forecast', 'New office opens in Lyon', 'Outage report: May 14', 'Meet the 2024 interns']);
  const lines = [text(heading, 24, 24 + headingSize, { size: headingSize, weight: 'bold', family })];
  let y = 24 + headingSize + 24;
  lines.push(text(`By ${random.pick(PEOPLE)} | ${random.int(3, 12)} min read`, 24, y, { size: 11, color: '#6e7781' }));
  y += 30;
  const bodySize = random.int(13, 15);
  for (let line = 0; line < random.int(3, 4); line++) {
    lines.push(text(sentence(random.int(6, 8)), 24, y, { size: bodySize, family, color: '#24292f' }));
    y += Math.round(bodySize * 1.6);
  }
  y += 12;
  const quote = random.pick(['"It just works now."', '"We saw it in a week."', '"Fewer pages at night."']);
  lines.push(text(quote, 40, y, { size: 18, style: 'italic', color: '#0969da', family }));
  y += 30;
  lines.push(text(`Photo: ${random.pick(PEOPLE)}, ${random.int(2019, 2024)}`, 24, y, { size: 10, color: '#8c959f' }));
  return { width, height: y + 16, background: random.pick(['#ffffff', '#fffdf7']), parts: [`<rect x="0" y="0" width="6" height="${y + 16}" fill="#0969da"/>`], lines };
}

// A dark dashboard: card titles, big numbers, delta badges (small text on pills), coloured status.
function dashboardScene(random) {
  const cards = random.int(2, 3);
  const cardWidth = random.int(190, 220);
  const width = 16 + cards * (cardWidth + 16);
  const height = random.int(150, 170);
  const background = random.pick(['#0d1117', '#161b22', '#1c2128']);
  const parts = [];
  const lines = [];
  const titles = random.sample(['Active users', 'Revenue today', 'Open incidents', 'Conversion rate', 'Avg. session', 'Error budget'], cards);
  const statuses = random.sample([['Healthy', '#3fb950'], ['3 failing', '#f85149'], ['Degraded', '#d29922'], ['vs last week', '#8b949e']], cards);
  for (const [index, title] of titles.entries()) {
    const x = 16 + index * (cardWidth + 16);
    parts.push(`<rect x="${x}" y="16" width="${cardWidth}" height="${height - 32}" rx="8" fill="#21262d" stroke="#30363d"/>`);
    lines.push(text(title, x + 14, 42, { size: 12, color: '#8b949e' }));
    const value = random.pick([() => thousands(random.int(1000, 99_999)), () => `$${thousands(random.int(100, 9999))}.${String(random.int(0, 99)).padStart(2, '0')}`, () => `${random.int(1, 9)}.${random.int(0, 9)}%`, () => `${random.int(1, 14)}m ${random.int(0, 59)}s`])();
    const valueSize = random.int(26, 32);
    lines.push(text(value, x + 14, 48 + valueSize, { size: valueSize, color: '#e6edf3', weight: 'bold' }));
    const up = random.chance(0.5);
    const delta = `${up ? '+' : '-'}${random.int(0, 19)}.${random.int(0, 9)}%`;
    const badgeSize = random.int(10, 11);
    const badgeWidth = textWidth(delta, badgeSize) + 14;
    const badgeY = 48 + valueSize + 14;
    parts.push(`<rect x="${x + 14}" y="${badgeY}" width="${badgeWidth.toFixed(0)}" height="${badgeSize + 8}" rx="${(badgeSize + 8) / 2}" fill="${up ? '#238636' : '#da3633'}"/>`);
    lines.push(text(delta, x + 14 + badgeWidth / 2, badgeY + badgeSize / 2 + 4 + badgeSize * 0.36, { size: badgeSize, color: '#ffffff', anchor: 'middle' }));
    const status = statuses[index];
    lines.push(text(status[0], x + 14 + badgeWidth + 10, badgeY + badgeSize / 2 + 4 + badgeSize * 0.36, { size: 11, color: status[1] }));
  }
  return { width, height, background, parts, lines };
}

// Clean rendered lines, as a user would call easy: dark text on white in the four DejaVu faces
// (regular, bold, italic), 11–28 px, full of digits (percentages, prices, dates, codes) where 0/O and
// 1/l look alike, and the last line close to the bottom edge (2–5 px below its descenders).
function cleanLinesScene(random) {
  const width = random.int(460, 720);
  const templates = [
    () => `Revenue grew ${random.int(10, 99)}.${random.int(0, 9)}% in Q${random.int(1, 4)} ${random.int(2019, 2026)}`,
    () => `Invoice INV-${random.int(10000, 99999)} due ${String(random.int(1, 28)).padStart(2, '0')}/${String(random.int(1, 12)).padStart(2, '0')}/${random.int(2024, 2027)}`,
    () => `Total: $${thousands(random.int(100, 99999))}.${String(random.int(0, 99)).padStart(2, '0')}`,
    () => `Call 0800 ${random.int(100, 999)} ${String(random.int(0, 9999)).padStart(4, '0')} before ${random.int(1, 12)}:${random.pick(['00', '05', '10', '30', '45'])} pm`,
    () => `Version ${random.int(1, 12)}.${random.int(0, 20)}.${random.int(0, 30)} released on ${random.pick(MONTHS)} ${random.int(1, 28)}`,
    () => `Order #${random.int(10000, 99999)} shipped to ${random.pick(PEOPLE)}`,
    () => `Room ${random.int(100, 1099)}, floor ${random.int(1, 40)}, code ${random.pick(['A0', 'B1', 'O0', 'L1', 'I0'])}-${random.int(10, 99)}`,
    () => `Conversion rate ${random.int(0, 9)}.${random.int(10, 99)}% (+${random.int(0, 9)}.${random.int(0, 9)} pts)`,
    () => `${random.int(1, 999)} items at ${random.int(0, 99)}.${String(random.int(0, 99)).padStart(2, '0')} each, ${random.int(10, 70)} in stock`,
    () => `The meeting moved to ${random.pick(['Monday', 'Tuesday', 'Thursday', 'Friday'])} at ${random.int(8, 11)}:${random.pick(['00', '15', '30'])} am`,
    () => `Latency p${random.pick([50, 90, 95, 99])} was ${random.int(10, 900)} ms over ${thousands(random.int(1000, 90000))} requests`,
    () => `Plan ${random.pick(['Basic', 'Pro', 'Team'])}: ${random.int(1, 100)} GB storage, ${random.int(1, 10)} users`,
  ];
  const faces = [
    { family: 'DejaVu Sans' },
    { family: 'DejaVu Serif' },
    { family: 'DejaVu Sans Mono' },
    { family: 'DejaVu Sans Condensed' },
    { family: 'DejaVu Sans', weight: 'bold' },
    { family: 'DejaVu Serif', style: 'italic' },
  ];
  const count = random.int(5, 7);
  const lines = [];
  let y = random.int(8, 16);
  const sizes = Array.from({ length: count }, () => random.int(11, 28));
  for (const [index, size] of sizes.entries()) {
    const face = random.pick(faces);
    let line = random.pick(templates)();
    // Long lines are cut to the width at a word boundary.
    while (textWidth(line, size, face.family, face.weight) > width - 24 && line.includes(' ')) line = line.slice(0, line.lastIndexOf(' '));
    y += Math.round(size * 1.0);
    lines.push(text(line, 12, y, { size, color: random.pick(['#000000', '#1f2328', '#333333']), ...face }));
    if (index < count - 1) y += Math.round(size * random.next() * 0.6) + 6;
  }
  // The last line's descenders end 2–5 px above the bottom edge.
  const height = y + Math.ceil(sizes.at(-1) * 0.24) + random.int(2, 5);
  return { width, height, background: '#ffffff', parts: [], lines };
}

export const SCENE_KINDS = { toolbar: toolbarScene, 'small-print': smallPrintScene, chart: chartScene, 'low-contrast-form': formScene, article: articleScene, 'dark-dashboard': dashboardScene };
/** Kinds drawn from a second stream (seed + 1), after the others, so that adding them changed none of the earlier images; all PNG. */
export const CLEAN_KINDS = { 'clean-lines': cleanLinesScene };

/**
 * The bench set: SCENES_PER_KIND scenes of each kind, in a fixed order, drawn from `seed`. One scene
 * of each kind travels as JPEG at quality 75, as screenshots shared in chats do.
 */
export async function benchSet(seed = BENCH_SEED) {
  const random = createRandom(seed);
  const scenes = [];
  for (let round = 0; round < SCENES_PER_KIND; round++) {
    for (const [index, [kind, draw]] of Object.entries(SCENE_KINDS).entries()) {
      const { width, height, background, parts, lines } = draw(random);
      // One scene of each kind is a JPEG: kinds 0 and 4 in the first round, 1 and 5 in the second, …
      const jpeg = index % SCENES_PER_KIND === round;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${background}"/>${parts.join('')}${lines.map((line) => line.svg).join('')}</svg>`;
      const image = await renderSvg(svg, jpeg ? { format: 'image/jpeg', quality: 75 } : {});
      scenes.push({ id: `${kind}-${round + 1}`, kind, image, lines: lines.map((line) => line.text), svg });
    }
  }
  const clean = createRandom(seed + 1);
  for (let round = 0; round < SCENES_PER_KIND; round++) {
    for (const [kind, draw] of Object.entries(CLEAN_KINDS)) {
      const { width, height, background, parts, lines } = draw(clean);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${background}"/>${parts.join('')}${lines.map((line) => line.svg).join('')}</svg>`;
      scenes.push({ id: `${kind}-${round + 1}`, kind, image: await renderSvg(svg), lines: lines.map((line) => line.text), svg });
    }
  }
  return scenes;
}

const tokens = (line) => line.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);

/**
 * Lines read exactly: an expected line counts when its words appear, in order and next to each
 * other, as whole words of one line the engine read (so a row that an engine reads as one line
 * "Region eu-west-1" still gives both "Region" and "eu-west-1"). Each word read is used once.
 */
export function scoreLines(expectedLines, readLines) {
  const read = readLines.map(tokens).filter((line) => line.length > 0);
  const used = read.map((line) => line.map(() => false));
  const misses = [];
  let exact = 0;
  // Longest first, so that a short line does not take the words of a longer one.
  const order = expectedLines.map((line, index) => ({ line, index, words: tokens(line) })).sort((a, b) => b.words.length - a.words.length || a.index - b.index);
  for (const { line, words } of order) {
    let found = false;
    for (let row = 0; row < read.length && !found; row++) {
      for (let start = 0; start + words.length <= read[row].length && !found; start++) {
        if (words.every((word, offset) => read[row][start + offset] === word && !used[row][start + offset])) {
          for (let offset = 0; offset < words.length; offset++) used[row][start + offset] = true;
          found = true;
        }
      }
    }
    if (found) exact++;
    else misses.push(line);
  }
  return { exact, misses };
}
