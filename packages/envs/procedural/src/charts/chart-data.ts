import type { Rng } from '@saccade/core';
import { levelInt } from '../common/difficulty';
import { COLOURS, type ColourName } from '../common/palette';

/** The chart kinds the charts generator draws. */
export const CHART_KINDS = ['bar', 'grouped-bar', 'line', 'pie'] as const;
/** One of {@link CHART_KINDS}. */
export type ChartKind = (typeof CHART_KINDS)[number];

/** One data series: a name, its colour and one value per category (pie: per slice, in percent). */
export interface ChartSeries {
  name: string;
  colour: ColourName;
  values: number[];
}

/** Where the plot sits in pixels: value v is drawn at y = zeroY − v / unit × pixelsPerUnit. */
export interface PlotGeometry {
  left: number;
  right: number;
  top: number;
  zeroY: number;
  pixelsPerUnit: number;
}

/** Everything a chart shows: its kind, title, categories, series, axis and plot geometry; questions are answered from it. */
export interface ChartData {
  kind: ChartKind;
  title: string;
  categories: string[];
  series: ChartSeries[];
  /** Every value is a multiple of `unit`; the axis runs from 0 to 50 units. */
  unit: number;
  axisMax: number;
  showValues: boolean;
  plot: PlotGeometry;
  /** Pie only: centre and radius. */
  pie?: { cx: number; cy: number; radius: number };
}

const THEMES = [
  { title: 'Crates of fruit sold', categories: ['Apples', 'Pears', 'Plums', 'Grapes', 'Lemons', 'Mangos', 'Kiwis', 'Figs'], series: ['Market', 'Online', 'Export'] },
  { title: 'Visitors per city (thousands)', categories: ['Lyon', 'Porto', 'Gdansk', 'Turin', 'Bergen', 'Ghent', 'Cork', 'Graz'], series: ['Spring', 'Summer', 'Autumn'] },
  { title: 'Tickets by team', categories: ['Atlas', 'Boreal', 'Cobalt', 'Delta', 'Ember', 'Falcon', 'Granite', 'Harbor'], series: ['Open', 'Closed', 'Waiting'] },
  { title: 'Energy output (MWh)', categories: ['Solar', 'Wind', 'Hydro', 'Biogas', 'Tidal', 'Geothermal', 'Diesel', 'Coal'], series: ['Plant A', 'Plant B', 'Plant C'] },
] as const;

/** Units keep every value an exact multiple of 5 px of bar height. */
const UNITS = [1, 2, 4, 10, 20] as const;
export const AXIS_UNITS = 50;
export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 400;
const SERIES_COLOURS: ColourName[] = ['blue', 'orange', 'green', 'purple', 'red', 'cyan', 'yellow', 'brown'];

/** Distinct whole numbers from [low, high], so maxima, minima and orders are unique. */
function distinct(rng: Rng, count: number, low: number, high: number): number[] {
  return rng.shuffle(Array.from({ length: high - low + 1 }, (_, index) => low + index)).slice(0, count);
}

/** Whole percentages ≥ 4, all different, that add up to 100. */
function piePercentages(rng: Rng, count: number): number[] {
  for (;;) {
    const cuts = distinct(rng, count - 1, 1, 99).sort((a, b) => a - b);
    const parts = [...cuts, 100].map((cut, index) => cut - (index === 0 ? 0 : cuts[index - 1]!));
    if (parts.every((part) => part >= 4) && new Set(parts).size === parts.length) return parts;
  }
}

export function drawChartData(rng: Rng, kind: ChartKind, difficulty: number): ChartData {
  const theme = rng.pick(THEMES);
  const legend = kind === 'grouped-bar' || kind === 'pie';
  const plot: PlotGeometry = { left: 70, right: legend ? CHART_WIDTH - 140 : CHART_WIDTH - 30, top: 80, zeroY: 330, pixelsPerUnit: 5 };
  const unit = rng.pick(UNITS);
  const showValues = difficulty < 0.5;
  if (kind === 'pie') {
    const count = levelInt(difficulty, 3, 7);
    const categories = rng.shuffle(theme.categories).slice(0, count);
    const values = piePercentages(rng, count);
    return {
      kind, title: `${theme.title}: share (%)`, categories, unit: 1, axisMax: 100, showValues, plot,
      series: [{ name: 'share', colour: 'blue', values }],
      pie: { cx: 220, cy: 215, radius: 130 },
    };
  }
  if (kind === 'line') {
    const count = levelInt(difficulty, 4, 8);
    const firstYear = rng.int(2005, 2016);
    const categories = Array.from({ length: count }, (_, index) => String(firstYear + index));
    const values = distinct(rng, count, 2, 48).map((value) => value * unit);
    return { kind, title: theme.title, categories, unit, axisMax: AXIS_UNITS * unit, showValues, plot, series: [{ name: theme.title, colour: 'blue', values }] };
  }
  const count = levelInt(difficulty, 3, kind === 'grouped-bar' ? 6 : 8);
  const categories = rng.shuffle(theme.categories).slice(0, count);
  const seriesCount = kind === 'grouped-bar' ? (difficulty < 0.5 ? 2 : 3) : 1;
  const colours = rng.shuffle(SERIES_COLOURS);
  const series = Array.from({ length: seriesCount }, (_, index) => ({
    name: kind === 'grouped-bar' ? theme.series[index]! : theme.title,
    colour: colours[index]!,
    values: distinct(rng, count, 2, 48).map((value) => value * unit),
  }));
  return { kind, title: theme.title, categories, unit, axisMax: AXIS_UNITS * unit, showValues, plot, series };
}

export const colourHex = (name: ColourName): string => COLOURS[name];
