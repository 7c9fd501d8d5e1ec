import type { Rng } from '@saccade/core';
import { lerp, levelInt } from '../common/difficulty';
import { num, svgDocument, svgText } from '../common/svg';

/** The icons an icon button can show. */
export const ICONS = ['plus', 'trash', 'gear', 'search', 'home', 'download'] as const;
/** One of {@link ICONS}. */
export type IconName = (typeof ICONS)[number];
/** What kind of element a GUI element is. */
export type ElementRole = 'button' | 'icon-button' | 'text-field' | 'checkbox' | 'list-item';

/** One clickable element; everything it draws stays inside `box` ([x1, y1, x2, y2], pixels). */
export interface GuiElement {
  id: string;
  role: ElementRole;
  label: string;
  icon?: IconName;
  box: [number, number, number, number];
  fontSize: number;
}

/** A screen: the chrome (title, panels, captions) and the elements on it. */
export interface GuiScreen {
  width: number;
  height: number;
  title: string;
  chrome: string;
  elements: GuiElement[];
}

const APPS = ['Ledger', 'Atlas CRM', 'PhotoDesk', 'Mailbox', 'Planner', 'Inventory'];
const TEXT_BUTTONS = ['Save', 'Open', 'Export', 'Share', 'Print', 'Undo', 'Redo', 'Import', 'Sync', 'Archive'];
const FIELDS = ['Name', 'Email', 'Phone', 'City', 'Company', 'Address', 'Postcode'];
const CHECKBOXES = ['Remember me', 'Subscribe to newsletter', 'Accept the terms', 'Send a copy to me'];
const FORM_BUTTONS = ['Submit', 'Cancel', 'Reset'];
const LIST_STEMS = ['Invoice', 'Report', 'Draft', 'Contract', 'Photo', 'Budget'];

/** DejaVu Sans is at most about 0.7 em wide per character (capitals), so this width always holds the text. */
const textWidth = (text: string, size: number) => Math.ceil(text.length * size * 0.7);
const box = (x: number, y: number, width: number, height: number): GuiElement['box'] => [Math.round(x), Math.round(y), Math.round(x + width), Math.round(y + height)];

/** Lays out a title bar, a toolbar, a form and a list; harder screens are larger, with more and smaller elements. */
export function drawGuiScreen(rng: Rng, difficulty: number): GuiScreen {
  const s = lerp(difficulty, 1.15, 0.8);
  const width = levelInt(difficulty, 800, 1280);
  const height = Math.round(width * 0.625);
  const font = Math.round(14 * s);
  const title = rng.pick(APPS);
  const elements: GuiElement[] = [];
  const chrome: string[] = [];
  const titleHeight = Math.round(36 * s);
  chrome.push(`<rect width="${width}" height="${titleHeight}" fill="#2d3748"/>`, svgText(16, titleHeight / 2, title, { size: font + 2, fill: '#ffffff', weight: 'bold', middle: true }));
  const toolbarTop = titleHeight;
  const toolbarHeight = Math.round(48 * s);
  chrome.push(`<rect y="${toolbarTop}" width="${width}" height="${toolbarHeight}" fill="#edf2f7"/>`);

  // Toolbar: icon buttons then text buttons, left to right while they fit.
  const iconSize = Math.round(32 * s);
  const buttonHeight = Math.round(32 * s);
  let x = 12;
  const buttonTop = toolbarTop + (toolbarHeight - buttonHeight) / 2;
  for (const icon of rng.shuffle(ICONS).slice(0, levelInt(difficulty, 3, 6))) {
    elements.push({ id: `icon-${icon}`, role: 'icon-button', label: icon, icon, box: box(x, buttonTop, iconSize, iconSize), fontSize: font });
    x += iconSize + 8;
  }
  x += 12;
  for (const label of rng.shuffle(TEXT_BUTTONS).slice(0, levelInt(difficulty, 2, 7))) {
    const buttonWidth = textWidth(label, font) + 20;
    if (x + buttonWidth > width - 12) break;
    elements.push({ id: `button-${label}`, role: 'button', label, box: box(x, buttonTop, buttonWidth, buttonHeight), fontSize: font });
    x += buttonWidth + 8;
  }

  // Form on the left.
  const bodyTop = toolbarTop + toolbarHeight + Math.round(20 * s);
  let y = bodyTop;
  const formLeft = Math.round(32 * s);
  const fieldWidth = Math.round(260 * s);
  const fieldHeight = Math.round(30 * s);
  for (const label of rng.shuffle(FIELDS).slice(0, levelInt(difficulty, 2, 5))) {
    chrome.push(svgText(formLeft, y + font, label, { size: font, fill: '#2d3748' }));
    elements.push({ id: `field-${label}`, role: 'text-field', label, box: box(formLeft, y + font + 6, fieldWidth, fieldHeight), fontSize: font });
    y += font + 6 + fieldHeight + Math.round(14 * s);
  }
  for (const label of rng.shuffle(CHECKBOXES).slice(0, levelInt(difficulty, 1, 3))) {
    const side = Math.round(18 * s);
    elements.push({ id: `checkbox-${label}`, role: 'checkbox', label, box: box(formLeft, y, side + 8 + textWidth(label, font), side), fontSize: font });
    y += side + Math.round(12 * s);
  }
  x = formLeft;
  y += Math.round(8 * s);
  for (const label of FORM_BUTTONS.slice(0, levelInt(difficulty, 2, 3))) {
    const buttonWidth = textWidth(label, font) + 28;
    elements.push({ id: `button-${label}`, role: 'button', label, box: box(x, y, buttonWidth, buttonHeight), fontSize: font });
    x += buttonWidth + 12;
  }

  // A list on the right; harder lists share a stem, so the number is what tells items apart.
  const listLeft = Math.round(width * 0.56);
  const listWidth = width - listLeft - Math.round(32 * s);
  const rowHeight = Math.round(32 * s);
  const maxRows = Math.floor((height - bodyTop - 40 * s) / rowHeight);
  const rows = Math.min(maxRows, levelInt(difficulty, 3, 12));
  chrome.push(`<rect x="${listLeft}" y="${bodyTop}" width="${listWidth}" height="${rowHeight * (rows + 1)}" fill="#ffffff" stroke="#cbd5e0"/>`);
  chrome.push(svgText(listLeft + 12, bodyTop + rowHeight / 2, 'Files', { size: font, weight: 'bold', middle: true }));
  const stems = difficulty < 0.5 ? rng.shuffle(LIST_STEMS) : [rng.pick(LIST_STEMS)];
  const used = new Set<string>();
  for (let row = 0; row < rows; row++) {
    let label: string;
    do label = `${stems[row % stems.length]} ${rng.int(100, 999)}`;
    while (used.has(label));
    used.add(label);
    elements.push({ id: `item-${label}`, role: 'list-item', label, box: box(listLeft + 1, bodyTop + rowHeight * (row + 1), listWidth - 2, rowHeight), fontSize: font });
  }
  return { width, height, title, chrome: chrome.join(''), elements };
}

function iconGlyph(icon: IconName, [x1, y1, x2, y2]: GuiElement['box']): string {
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2;
  const r = (x2 - x1) * 0.28;
  const ink = 'stroke="#4a5568" stroke-width="2.5" fill="none" stroke-linecap="round"';
  switch (icon) {
    case 'plus':
      return `<path d="M ${num(cx - r)} ${num(cy)} H ${num(cx + r)} M ${num(cx)} ${num(cy - r)} V ${num(cy + r)}" ${ink}/>`;
    case 'trash':
      return `<path d="M ${num(cx - r)} ${num(cy - r * 0.6)} H ${num(cx + r)} M ${num(cx - r * 0.3)} ${num(cy - r)} H ${num(cx + r * 0.3)} M ${num(cx - r * 0.7)} ${num(cy - r * 0.6)} L ${num(cx - r * 0.55)} ${num(cy + r)} H ${num(cx + r * 0.55)} L ${num(cx + r * 0.7)} ${num(cy - r * 0.6)}" ${ink}/>`;
    case 'gear':
      return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r * 0.85)}" ${ink} stroke-dasharray="3 2"/><circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r * 0.35)}" ${ink}/>`;
    case 'search':
      return `<circle cx="${num(cx - r * 0.2)}" cy="${num(cy - r * 0.2)}" r="${num(r * 0.6)}" ${ink}/><path d="M ${num(cx + r * 0.25)} ${num(cy + r * 0.25)} L ${num(cx + r)} ${num(cy + r)}" ${ink}/>`;
    case 'home':
      return `<path d="M ${num(cx - r)} ${num(cy)} L ${num(cx)} ${num(cy - r)} L ${num(cx + r)} ${num(cy)} M ${num(cx - r * 0.7)} ${num(cy - r * 0.2)} V ${num(cy + r)} H ${num(cx + r * 0.7)} V ${num(cy - r * 0.2)}" ${ink}/>`;
    case 'download':
      return `<path d="M ${num(cx)} ${num(cy - r)} V ${num(cy + r * 0.4)} M ${num(cx - r * 0.5)} ${num(cy - r * 0.1)} L ${num(cx)} ${num(cy + r * 0.4)} L ${num(cx + r * 0.5)} ${num(cy - r * 0.1)} M ${num(cx - r)} ${num(cy + r)} H ${num(cx + r)}" ${ink}/>`;
  }
}

/** One element as SVG, drawn inside its box (borders inset by half a stroke). */
export function elementSvg(element: GuiElement): string {
  const [x1, y1, x2, y2] = element.box;
  const w = x2 - x1;
  const h = y2 - y1;
  const size = element.fontSize;
  switch (element.role) {
    case 'icon-button':
      return `<rect x="${x1 + 0.5}" y="${y1 + 0.5}" width="${w - 1}" height="${h - 1}" rx="4" fill="#ffffff" stroke="#a0aec0"/>` + iconGlyph(element.icon!, element.box);
    case 'button': {
      const primary = element.label === 'Submit' || element.label === 'Save';
      return `<rect x="${x1}" y="${y1}" width="${w}" height="${h}" rx="4" fill="${primary ? '#3182ce' : '#e2e8f0'}"/>` + svgText(x1 + w / 2, y1 + h / 2, element.label, { size, anchor: 'middle', middle: true, fill: primary ? '#ffffff' : '#1a202c' });
    }
    case 'text-field':
      return `<rect x="${x1 + 0.5}" y="${y1 + 0.5}" width="${w - 1}" height="${h - 1}" rx="3" fill="#ffffff" stroke="#a0aec0"/>`;
    case 'checkbox':
      return `<rect x="${x1 + 1}" y="${y1 + 1}" width="${h - 2}" height="${h - 2}" rx="2" fill="#ffffff" stroke="#4a5568" stroke-width="1.5"/>` + svgText(x1 + h + 8, y1 + h / 2, element.label, { size, middle: true, fill: '#2d3748' });
    case 'list-item':
      return `<rect x="${x1}" y="${y1}" width="${w}" height="${h}" fill="#f7fafc"/><rect x="${x1}" y="${y2 - 1}" width="${w}" height="1" fill="#e2e8f0"/>` + svgText(x1 + 12, y1 + h / 2, element.label, { size, middle: true, fill: '#2d3748' });
  }
}

/** The whole screen; `omit` leaves one element out (tests compare the two renders to find its pixels). */
export function guiScreenSvg(screen: GuiScreen, { omit }: { omit?: string } = {}): string {
  const body = screen.chrome + screen.elements.filter((element) => element.id !== omit).map(elementSvg).join('');
  return svgDocument(screen.width, screen.height, body, '#f5f7fa');
}

/** The instruction a user would give for the element. */
export function instructionFor(element: GuiElement): string {
  switch (element.role) {
    case 'icon-button':
      return { plus: 'Click the plus (add) icon.', trash: 'Click the trash (delete) icon.', gear: 'Click the settings (gear) icon.', search: 'Click the search (magnifier) icon.', home: 'Click the home icon.', download: 'Click the download icon.' }[element.icon!];
    case 'button':
      return `Click the '${element.label}' button.`;
    case 'text-field':
      return `Click the text field labelled '${element.label}'.`;
    case 'checkbox':
      return `Tick the '${element.label}' checkbox.`;
    case 'list-item':
      return `Select '${element.label}' in the Files list.`;
  }
}
