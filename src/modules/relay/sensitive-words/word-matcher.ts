/**
 * Finds whether a text contains any of a list of words, case-insensitively, in one pass over
 * the text (Aho–Corasick; a long text in four stretches read side by side). Built once per
 * change of the word list; `contains` allocates nothing (it reads the text through a scratch
 * array). Text and words are compared as UTF-16 code units, each folded to lower case.
 *
 * The automaton is compiled to a dense table (state × character class) when that fits in
 * DENSE_TABLE_LIMIT entries: then one table read per character. Word lists over a large
 * alphabet (thousands of distinct CJK characters) keep the trie's edges in a double array
 * (two reads per edge, whatever the alphabet) and follow failure links, except from the states
 * with the most children, which get complete rows: in text of the words' own script the scan
 * is mostly in those, one read per character again.
 */
export class WordMatcher {
  private constructor(
    /** Character class of each UTF-16 code unit; 0 for a unit that is in no word. */
    private readonly classOf: Uint16Array,
    private readonly automaton: Automaton,
  ) {}

  /** A matcher that finds nothing, for an empty list. */
  static readonly EMPTY = new WordMatcher(new Uint16Array(0), { contains: () => false });

  /** `denseTableLimit` is for tests, which check both forms. */
  static build(words: readonly string[], denseTableLimit = DENSE_TABLE_LIMIT): WordMatcher {
    const lowered = [...new Set(words.map((word) => word.toLowerCase()).filter((word) => word !== ''))];
    if (lowered.length === 0) return WordMatcher.EMPTY;
    const { classOf, classes } = characterClasses(lowered);
    const maxStates = 1 + lowered.reduce((sum, word) => sum + word.length, 0);
    const automaton = maxStates * classes <= denseTableLimit ? denseAutomaton(lowered, classOf, classes, maxStates) : sparseAutomaton(lowered, classOf, classes, maxStates);
    return new WordMatcher(classOf, automaton);
  }

  get empty(): boolean {
    return this === WordMatcher.EMPTY;
  }

  contains(text: string): boolean {
    return this.automaton.contains(text, this.classOf);
  }
}

/** 8 M entries (32 MB): room for 10,000 English words several times over. */
const DENSE_TABLE_LIMIT = 8 * 1024 * 1024;
const ROOT = 0;

interface Automaton {
  contains(text: string, classOf: Uint16Array): boolean;
}

/** One class per distinct (lower-case) unit of the words; every unit folding to it shares it. */
function characterClasses(words: readonly string[]): { classOf: Uint16Array; classes: number } {
  const classByUnit = new Map<number, number>();
  for (const word of words) {
    for (let i = 0; i < word.length; i++) {
      const unit = word.charCodeAt(i);
      if (!classByUnit.has(unit)) classByUnit.set(unit, classByUnit.size + 1);
    }
  }
  if (classByUnit.size >= 0xffff) throw new Error('too many distinct characters in the word list');
  const lowerOf = lowerCaseUnits();
  const classOf = new Uint16Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) classOf[unit] = classByUnit.get(lowerOf[unit]) ?? 0;
  return { classOf, classes: classByUnit.size + 1 };
}

let lowerCaseTable: Uint16Array | undefined;

/** Each UTF-16 unit's lower case (itself when that is not a single unit), computed once per process. */
function lowerCaseUnits(): Uint16Array {
  if (lowerCaseTable) return lowerCaseTable;
  lowerCaseTable = new Uint16Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) {
    const folded = String.fromCharCode(unit).toLowerCase();
    lowerCaseTable[unit] = folded.length === 1 ? folded.charCodeAt(0) : unit;
  }
  return lowerCaseTable;
}

/**
 * The words' trie, its edges given to `addEdge` (a new state for each new edge); answers the
 * number of states and which of them end a word.
 */
function buildTrie(
  words: readonly string[],
  classOf: Uint16Array,
  maxStates: number,
  childOf: (state: number, characterClass: number) => number,
  addEdge: (state: number, characterClass: number, child: number) => void,
): { states: number; accepts: Uint8Array } {
  const accepts = new Uint8Array(maxStates);
  let states = 1;
  for (const word of words) {
    let state = ROOT;
    for (let i = 0; i < word.length; i++) {
      const characterClass = classOf[word.charCodeAt(i)];
      let child = childOf(state, characterClass);
      if (child === ROOT) addEdge(state, characterClass, (child = states++));
      state = child;
    }
    accepts[state] = 1;
  }
  return { states, accepts };
}

/**
 * Every transition precomputed (the trie's table completed through failure links, in
 * breadth-first order so a failure state's row is complete before it is copied). Entries then
 * hold the next state's row offset (state × classes), or -1 for a transition into a state that
 * completes a word, so the scan stops there.
 */
function denseAutomaton(words: readonly string[], classOf: Uint16Array, classes: number, maxStates: number): Automaton {
  const next = new Int32Array(maxStates * classes);
  const { states, accepts } = buildTrie(
    words,
    classOf,
    maxStates,
    (state, characterClass) => next[state * classes + characterClass],
    (state, characterClass, child) => (next[state * classes + characterClass] = child),
  );
  const fail = new Int32Array(states);
  const order = new Int32Array(states);
  let queued = 1;
  for (let head = 0; head < queued; head++) {
    const state = order[head];
    const row = state * classes;
    const fallback = fail[state] * classes;
    for (let characterClass = 1; characterClass < classes; characterClass++) {
      const child = next[row + characterClass];
      if (child !== ROOT) {
        const link = state === ROOT ? ROOT : next[fallback + characterClass];
        fail[child] = link;
        accepts[child] |= accepts[link];
        order[queued++] = child;
      } else if (state !== ROOT) {
        next[row + characterClass] = next[fallback + characterClass];
      }
    }
  }
  // Rows in breadth-first order: a scan spends nearly all its time in the shallow states, whose
  // rows then sit together at the table's start instead of strewn across megabytes.
  const position = new Int32Array(states);
  for (let at = 0; at < states; at++) position[order[at]] = at;
  const table = new Int32Array(states * classes);
  for (let at = 0; at < states; at++) {
    const from = order[at] * classes;
    const to = at * classes;
    for (let characterClass = 0; characterClass < classes; characterClass++) {
      const target = next[from + characterClass];
      table[to + characterClass] = accepts[target] ? -1 : position[target] * classes;
    }
  }
  /** From `row`, reads units[from, to): the row reached, or -1 at the end of a word. */
  const scan = (units: Uint16Array, unitClasses: Uint16Array, from: number, to: number, row: number): number => {
    for (let i = from; i < to; i++) {
      row = table[row + unitClasses[units[i]]];
      if (row < 0) return -1;
    }
    return row;
  };
  const reach = longestWord(words) - 1;
  return {
    contains(text, unitClasses) {
      const units = utf16Units(text);
      const length = text.length;
      if (length < LANED_SCAN_FROM) return scan(units, unitClasses, 0, length, ROOT) < 0;
      // Four stretches scanned side by side (see laneGeometry): each read waits for the one
      // before it, so one scan leaves the processor waiting; four independent ones overlap.
      const lanes = laneGeometry(length, reach);
      const stretch = lanes[STRETCH];
      const together = lanes[TOGETHER];
      let row0 = ROOT;
      let row1 = ROOT;
      let row2 = ROOT;
      let row3 = ROOT;
      for (let i = 0; i < together; i++) {
        row0 = table[row0 + unitClasses[units[i]]];
        row1 = table[row1 + unitClasses[units[stretch + i]]];
        row2 = table[row2 + unitClasses[units[2 * stretch + i]]];
        row3 = table[row3 + unitClasses[units[3 * stretch + i]]];
        if ((row0 | row1 | row2 | row3) < 0) return true;
      }
      return (
        scan(units, unitClasses, together, lanes[END], row0) < 0 ||
        scan(units, unitClasses, stretch + together, lanes[END + 1], row1) < 0 ||
        scan(units, unitClasses, 2 * stretch + together, lanes[END + 2], row2) < 0 ||
        scan(units, unitClasses, 3 * stretch + together, lanes[END + 3], row3) < 0
      );
    },
  };
}

function longestWord(words: readonly string[]): number {
  return words.reduce((longest, word) => Math.max(longest, word.length), 0);
}

/** Texts from this many units are scanned in four stretches (see laneGeometry). */
const LANED_SCAN_FROM = 1024;

/**
 * How a long text is scanned as four stretches side by side, each from the root: the
 * stretch's length, how many steps all four take together, and where each stops reading. A
 * stretch reads on past its end by `reach` (the longest word less one unit), so every word
 * that starts in it ends in it. Int32s: the scans index with them, and V8 keeps its fastest
 * code for values it knows are small integers (returned in an object, they cost a third more).
 */
function laneGeometry(length: number, reach: number): Int32Array {
  const lanes = new Int32Array(END + 4);
  const stretch = Math.ceil(length / 4);
  let together = length;
  for (let lane = 0; lane < 4; lane++) {
    lanes[END + lane] = Math.min(length, (lane + 1) * stretch + reach);
    together = Math.min(together, lanes[END + lane] - lane * stretch);
  }
  lanes[STRETCH] = stretch;
  lanes[TOGETHER] = together;
  return lanes;
}

/** Fields of laneGeometry's answer. */
const STRETCH = 0;
const TOGETHER = 1;
const END = 2;

let unitsScratch = new Uint16Array(4096);
let unitsScratchBytes = Buffer.from(unitsScratch.buffer);
/** Longer texts get a copy of their own, so one huge prompt does not keep megabytes for good. */
const UNITS_SCRATCH_MAX = 1 << 20;

/**
 * The text's UTF-16 units in a typed array, reused (valid until the next call). Copying costs
 * less than reading the string with charCodeAt, which checks its representation every time.
 */
function utf16Units(text: string): Uint16Array {
  if (text.length > unitsScratch.length) {
    const units = new Uint16Array(Math.max(text.length, Math.min(UNITS_SCRATCH_MAX, 2 * unitsScratch.length)));
    const bytes = Buffer.from(units.buffer);
    if (units.length > UNITS_SCRATCH_MAX) {
      bytes.write(text, 0, 'utf16le');
      return units;
    }
    unitsScratch = units;
    unitsScratchBytes = bytes;
  }
  unitsScratchBytes.write(text, 0, 'utf16le');
  return unitsScratch;
}

/** The trie built in a map keyed by state × classes + class, then compiled to a double array and the hot states' rows. */
function sparseAutomaton(words: readonly string[], classOf: Uint16Array, classes: number, maxStates: number): Automaton {
  const edges = new Map<number, number>();
  // Each state's edges as a linked list, to visit them breadth-first.
  const firstEdge = new Int32Array(maxStates).fill(-1);
  const edgeClass = new Int32Array(maxStates);
  const edgeNext = new Int32Array(maxStates);
  const { states, accepts } = buildTrie(
    words,
    classOf,
    maxStates,
    (state, characterClass) => edges.get(state * classes + characterClass) ?? ROOT,
    (state, characterClass, child) => {
      edges.set(state * classes + characterClass, child);
      edgeClass[child] = characterClass;
      edgeNext[child] = firstEdge[state];
      firstEdge[state] = child;
    },
  );
  const rootNext = new Int32Array(classes);
  const fail = new Int32Array(states);
  const order = new Int32Array(states);
  let queued = 1;
  for (let head = 0; head < queued; head++) {
    const state = order[head];
    for (let child = firstEdge[state]; child !== -1; child = edgeNext[child]) {
      const characterClass = edgeClass[child];
      let link = ROOT;
      if (state === ROOT) {
        rootNext[characterClass] = child;
      } else {
        let from = fail[state];
        while (from !== ROOT && !edges.has(from * classes + characterClass)) from = fail[from];
        link = edges.get(from * classes + characterClass) ?? ROOT;
      }
      fail[child] = link;
      accepts[child] |= accepts[link];
      order[queued++] = child;
    }
  }
  const { base, check, positionOf } = doubleArray(states, classes, firstEdge, edgeClass, edgeNext);
  // Each position's cell, side by side so that a step reads one cache line: its base, its parent, its failure link, and
  // its code (below). A state is named by its cell's index (position × CELL).
  const cells = new Int32Array(check.length * CELL);
  for (let at = 0; at < check.length; at++) {
    cells[at * CELL] = base[at] * CELL;
    cells[at * CELL + 1] = check[at] < 0 ? -1 : check[at] * CELL;
  }
  const stateCells = Array.from(order.subarray(0, queued), (state) => positionOf[state] * CELL);
  for (let state = 1; state < states; state++) cells[positionOf[state] * CELL + 2] = positionOf[fail[state]] * CELL;
  const rootNextCell = rootNext.map((child) => positionOf[child] * CELL);
  const step = (from: number, characterClass: number): number => {
    for (let state = from; ; state = cells[state + 2]) {
      if (state === ROOT) return rootNextCell[characterClass];
      const child = cells[state] + characterClass * CELL;
      if (cells[child + 1] === state) return child;
    }
  };
  // The scan holds a state's code: its cell, ACCEPTED, or minus the offset of its complete row (a hot state).
  for (let state = 1; state < states; state++) cells[positionOf[state] * CELL + 3] = accepts[state] ? ACCEPTED : positionOf[state] * CELL;
  const hot = hotStates(cells, stateCells, classes);
  const rows = new Int32Array((hot.length + 1) * classes);
  hot.forEach((state, index) => (cells[state + 3] = -(index + 1) * classes));
  hot.forEach((state) => {
    const row = -cells[state + 3];
    for (let characterClass = 1; characterClass < classes; characterClass++) rows[row + characterClass] = cells[step(state, characterClass) + 3];
  });
  const rootNextCode = rootNextCell.map((cell) => cells[cell + 3]);
  /** The code after reading a unit of `characterClass` in the state of code `state`. */
  const advance = (state: number, characterClass: number): number => {
    // A hot state: one read (class 0, a unit in no word, leads to the root).
    if (state < 0) return rows[characterClass - state];
    if (characterClass === 0) return ROOT;
    for (;;) {
      if (state === ROOT) return rootNextCode[characterClass];
      const child = cells[state] + characterClass * CELL;
      if (cells[child + 1] === state) return cells[child + 3];
      state = cells[state + 2];
    }
  };
  /** From `state`, reads units[from, to): the code reached, or ACCEPTED at the end of a word. */
  const scan = (units: Uint16Array, unitClasses: Uint16Array, from: number, to: number, state: number): number => {
    for (let i = from; i < to; i++) {
      state = advance(state, unitClasses[units[i]]);
      if (state === ACCEPTED) return ACCEPTED;
    }
    return state;
  };
  const reach = longestWord(words) - 1;
  return {
    contains(text, unitClasses) {
      const units = utf16Units(text);
      const length = text.length;
      if (length < LANED_SCAN_FROM) return scan(units, unitClasses, 0, length, ROOT) === ACCEPTED;
      const lanes = laneGeometry(length, reach);
      const stretch = lanes[STRETCH];
      const together = lanes[TOGETHER];
      let state0 = ROOT;
      let state1 = ROOT;
      let state2 = ROOT;
      let state3 = ROOT;
      for (let i = 0; i < together; i++) {
        state0 = advance(state0, unitClasses[units[i]]);
        state1 = advance(state1, unitClasses[units[stretch + i]]);
        state2 = advance(state2, unitClasses[units[2 * stretch + i]]);
        state3 = advance(state3, unitClasses[units[3 * stretch + i]]);
        if (state0 === ACCEPTED || state1 === ACCEPTED || state2 === ACCEPTED || state3 === ACCEPTED) return true;
      }
      return (
        scan(units, unitClasses, together, lanes[END], state0) === ACCEPTED ||
        scan(units, unitClasses, stretch + together, lanes[END + 1], state1) === ACCEPTED ||
        scan(units, unitClasses, 2 * stretch + together, lanes[END + 2], state2) === ACCEPTED ||
        scan(units, unitClasses, 3 * stretch + together, lanes[END + 3], state3) === ACCEPTED
      );
    },
  };
}

/** Int32s per position of the double array: base, parent, failure link, code. */
const CELL = 4;
/** The code of a state that completes a word: no state's cell index (those are multiples of CELL). */
const ACCEPTED = 1;
/** Room for the complete rows of the busiest states: 2 M entries (8 MB). */
const HOT_ROW_ENTRIES = 2 * 1024 * 1024;
/** A state with fewer children gains little from a row. */
const HOT_ROW_MIN_CHILDREN = 3;

/**
 * The states with the most children, which a scan of text in the words' own script keeps
 * visiting (the first character of many words): each gets a complete row of transitions,
 * failure links already followed, so a step from it is one read, as in the dense table.
 */
function hotStates(cells: Int32Array, stateCells: number[], classes: number): number[] {
  const children = new Map<number, number>();
  for (const state of stateCells.slice(1)) {
    const parent = cells[state + 1];
    children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  return [...children]
    .filter(([state, count]) => state !== ROOT && count >= HOT_ROW_MIN_CHILDREN && cells[state + 3] !== ACCEPTED)
    .sort((a, b) => b[1] - a[1])
    .slice(0, Math.floor(HOT_ROW_ENTRIES / classes) - 1)
    .map(([state]) => state);
}

/**
 * The trie's edges as a double array: state s has its child by class c at position
 * base[s] + c when check[base[s] + c] is s. States are renumbered to positions (the root stays
 * at 0); a lookup is two typed-array reads, whatever the size of the alphabet.
 */
function doubleArray(
  states: number,
  classes: number,
  firstEdge: Int32Array,
  edgeClass: Int32Array,
  edgeNext: Int32Array,
): { base: Int32Array; check: Int32Array; positionOf: Int32Array } {
  let base = new Int32Array(states + classes);
  let check = new Int32Array(states + classes).fill(-1);
  const positionOf = new Int32Array(states);
  check[ROOT] = ROOT;
  // First position that may still be free: placement starts its search there, so it stays near linear.
  let firstFree = 1;
  const order = [ROOT];
  for (let head = 0; head < order.length; head++) {
    const state = order[head];
    const children: number[] = [];
    for (let child = firstEdge[state]; child !== -1; child = edgeNext[child]) children.push(child);
    if (children.length === 0) continue;
    children.sort((a, b) => edgeClass[a] - edgeClass[b]);
    while (check[firstFree] !== -1) firstFree++;
    let offset = Math.max(0, firstFree - edgeClass[children[0]]);
    for (;; offset++) {
      if (offset + classes > check.length) {
        // Room for any class past every offset tried: a lookup never reads past the end.
        base = grow(base, check.length * 2, 0);
        check = grow(check, check.length * 2, -1);
      }
      if (children.every((child) => check[offset + edgeClass[child]] === -1)) break;
    }
    const at = positionOf[state];
    base[at] = offset;
    for (const child of children) {
      positionOf[child] = offset + edgeClass[child];
      check[offset + edgeClass[child]] = at;
      order.push(child);
    }
  }
  check[ROOT] = -1;
  return { base, check, positionOf };
}

function grow(array: Int32Array<ArrayBuffer>, length: number, fill: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length).fill(fill);
  grown.set(array);
  return grown;
}
