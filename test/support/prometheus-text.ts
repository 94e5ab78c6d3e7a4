/** One sample of Prometheus' text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The metric families' declared types (`# TYPE name type`) and their samples. */
export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/g;

/** Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
function parseValue(text: string): number {
  if (/^[+-]?inf$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

/** Parses the text format strictly: a line that is neither a comment nor a well-formed sample throws. */
export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1], type[2]);
      else if (!line.startsWith('# HELP ')) throw new Error(`unexpected comment: ${line}`);
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = match[2] ?? '';
    let consumed = 0;
    for (const pair of labelText.matchAll(LABEL_PAIR)) {
      labels[pair[1]] = pair[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      consumed += pair[0].length;
    }
    if (consumed !== labelText.length) throw new Error(`malformed labels: ${line}`);
    samples.push({ name: match[1], labels, value: parseValue(match[3]) });
  }
  return { types, samples };
}

/** The value of the one sample with this name whose labels include `labels`; undefined when there is none. */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = exposition.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
