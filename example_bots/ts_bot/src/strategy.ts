// Simple rules for every game family, on the decoded protocol messages.
//
// Every function returns an index into the request's legal options, so the bot can never
// choose an illegal move. Enum values mirror proto/bullring/v1/bot.proto.

export const DecisionKind = {
  PICK_CARD: 1,
  TAKE_ROW: 2,
  CHOOSE_PLACE: 3,
  DRAFT_CARD: 4,
  X_ROW_CARD: 5,
  PLAY_OR_TAKE: 6,
  STEAL_BULL: 7,
  PLAY_STEP: 8,
} as const;

export const OptionKind = {
  CARD: 1,
  ROW: 2,
  PLACE: 3,
  PLAY: 4,
  SPECIAL: 5,
  END_TURN: 6,
  STEAL: 7,
} as const;

export interface Option {
  kind: number;
  card: number;
  row: number;
  side: number;
  target: number;
}

export interface Cards {
  cards: number[];
}

export interface HornochsenRow {
  cards: number[];
  x2: boolean;
  plus5: boolean;
}

export interface View {
  header?: { variant: string; options: Record<string, string>; players: number; seat: number };
  game?: string;
  six_nimmt?: { hand: number[]; rows: Cards[]; highest_card: number; draft_pool: number[] };
  x_nimmt?: { hand: number[]; rows: Cards[]; capacities: number[]; taken: number[] };
  eleven_nimmt?: { hand: number[]; pile_tops: number[] };
  hornochsen?: { hand: number[]; rows: HornochsenRow[]; steps_this_turn: number };
}

/** Bull heads of a 6 nimmt! / X nimmt! / 11 nimmt! card. */
export function heads(card: number): number {
  if (card === 55) return 7;
  if (card % 11 === 0) return 5;
  if (card % 10 === 0) return 3;
  if (card % 5 === 0) return 2;
  return 1;
}

const HORNOCHSEN_RED: Record<number, number> = {
  55: 7,
  11: 5, 22: 5, 33: 5, 44: 5, 66: 5, 77: 5, 88: 5,
  10: 3, 20: 3, 30: 3, 40: 3, 50: 3, 60: 3, 70: 3, 80: 3, 90: 3,
  5: 2, 25: 2, 45: 2, 75: 2, 95: 2,
};
const HORNOCHSEN_GREEN_TWO = new Set([15, 35, 42, 52, 65, 85]);

/** Signed points of a Hornochsen! card: green heads positive, red heads negative. */
export function hornochsenPoints(card: number): number {
  const red = HORNOCHSEN_RED[card];
  if (red !== undefined) return -red;
  return HORNOCHSEN_GREEN_TWO.has(card) ? 2 : 1;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function rowHeads(row: number[]): number {
  return sum(row.map(heads));
}

/** Index of the option with the lowest cost (first one on ties). */
function argmin(options: Option[], cost: (o: Option) => number): number {
  let best = 0;
  let bestCost = Infinity;
  options.forEach((o, i) => {
    const c = cost(o);
    if (c < bestCost) {
      bestCost = c;
      best = i;
    }
  });
  return best;
}

/** Cost of playing `card` in a game where a row taken at `capacity` cards goes to the player. */
function pickCost(card: number, rows: number[][], capacities: number[], bothEnds: boolean): number {
  let target = -1;
  let distance = Infinity;
  rows.forEach((row, i) => {
    const last = row[row.length - 1];
    const first = row[0];
    if (card > last && card - last < distance) {
      distance = card - last;
      target = i;
    }
    if (bothEnds && card < first && first - card < distance) {
      distance = first - card;
      target = i;
    }
  });
  if (target < 0) {
    // Too low: we take the cheapest row (a cheap row is a fine trade for a low card).
    return Math.min(...rows.map(rowHeads)) + 0.5;
  }
  const row = rows[target];
  if (row.length + 1 >= capacities[target]) return rowHeads(row);
  // The fuller the row and the wider the gap, the likelier someone fills it before us.
  const room = capacities[target] - 1 - row.length;
  return (distance * 0.02) / room;
}

function sixNimmt(kind: number, view: View, options: Option[]): number {
  const six = view.six_nimmt!;
  const rows = six.rows.map((r) => r.cards);
  const bothEnds = view.header?.options?.placement === "both";
  switch (kind) {
    case DecisionKind.PICK_CARD:
      return argmin(options, (o) => pickCost(o.card, rows, [6, 6, 6, 6], bothEnds));
    case DecisionKind.TAKE_ROW:
      return argmin(options, (o) => rowHeads(rows[o.row]) * 10 + rows[o.row].length);
    case DecisionKind.DRAFT_CARD:
      // Middle cards are the hardest to be forced with: prefer few heads, close to the middle.
      return argmin(options, (o) => heads(o.card) * 100 + Math.abs(o.card - six.highest_card / 2));
    default:
      return 0;
  }
}

function xNimmt(kind: number, view: View, options: Option[]): number {
  const x = view.x_nimmt!;
  const rows = x.rows.map((r) => r.cards);
  switch (kind) {
    case DecisionKind.PICK_CARD:
      // Getting rid of a heavy card is worth a little risk.
      return argmin(options, (o) => pickCost(o.card, rows, x.capacities, false) - heads(o.card) * 0.1);
    case DecisionKind.TAKE_ROW:
      return argmin(options, (o) => rowHeads(rows[o.row]) * 10 + rows[o.row].length);
    case DecisionKind.X_ROW_CARD:
      // The X row scores nothing: park the heaviest card there.
      return argmin(options, (o) => -heads(o.card) * 1000 - o.card);
    default:
      return 0;
  }
}

function elevenNimmt(kind: number, view: View, options: Option[]): number {
  const eleven = view.eleven_nimmt!;
  if (kind !== DecisionKind.PLAY_OR_TAKE) return 0;
  const plays = options.filter((o) => o.kind === OptionKind.PLAY);
  if (plays.length > 0) {
    // Shed the heaviest card, on the pile where it fits most snugly.
    const best = plays.reduce((a, b) => {
      const gap = (o: Option): number => (o.card - eleven.pile_tops[o.row] + 100) % 100;
      const score = (o: Option): number => heads(o.card) * 100 - gap(o);
      return score(b) > score(a) ? b : a;
    });
    return options.indexOf(best);
  }
  const end = options.findIndex((o) => o.kind === OptionKind.END_TURN);
  if (end >= 0) return end;
  return 0;
}

function hornochsen(kind: number, view: View, options: Option[]): number {
  const h = view.hornochsen!;
  if (kind !== DecisionKind.PLAY_STEP) return 0;
  const rows = h.rows;
  const targetRow = (card: number): number => {
    let best = -1;
    let highest = -1;
    rows.forEach((row, i) => {
      const end = row.cards[row.cards.length - 1];
      if (end < card && (best < 0 || end > rows[best].cards[rows[best].cards.length - 1])) best = i;
      if (highest < 0 || end > rows[highest].cards[rows[highest].cards.length - 1]) highest = i;
    });
    return best >= 0 ? best : highest;
  };
  const rowValue = (row: HornochsenRow, extra: number[]): number => {
    const base = sum([...row.cards, ...extra].map(hornochsenPoints)) + (row.plus5 ? 5 : 0);
    return row.x2 ? base * 2 : base;
  };
  const value = (o: Option): number => {
    if (o.kind === OptionKind.END_TURN) return -0.5;
    if (o.kind === OptionKind.SPECIAL) {
      const row = rows[o.row];
      // Specials left in hand cost 10: play them on rows about to be collected by us later.
      return o.card === 2 ? -1 + row.cards.length * 0.1 : rowValue(row, []) > 0 ? -1 : -3;
    }
    const row = rows[targetRow(o.card)];
    if (row.cards.length === 4) return rowValue(row, [o.card]);
    // Never hand the next player a profitable 4-card row.
    const after = row.cards.length + 1;
    return after === 4 ? -Math.max(0, rowValue(row, [o.card])) - 0.2 : -0.1 * after;
  };
  return argmin(options, (o) => -value(o));
}

/** The chosen option index for a decision. */
export function choose(kind: number, view: View, options: Option[]): number {
  if (options.length <= 1) return 0;
  switch (view.game) {
    case "six_nimmt":
      return sixNimmt(kind, view, options);
    case "x_nimmt":
      return xNimmt(kind, view, options);
    case "eleven_nimmt":
      return elevenNimmt(kind, view, options);
    case "hornochsen":
      return hornochsen(kind, view, options);
    default:
      return 0;
  }
}
