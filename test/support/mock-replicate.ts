import type { MockReply, ReceivedRequest } from './mock-upstream';

/** What the mock's language models answer, token by token (the stream sends each as one `output` event). */
export const REPLICATE_TOKENS = ['Hello', ' from', ' mock', ' Replicate', '!'];
export const REPLICATE_REPLY_TEXT = REPLICATE_TOKENS.join('');
/** The metrics of every finished language-model prediction. */
export const REPLICATE_METRICS = { input_token_count: 20, output_token_count: 9, predict_time: 0.42 };

interface Prediction {
  id: string;
  model: string;
  version?: string;
  input: Record<string, unknown>;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output: unknown;
  error: string | null;
  /** Reads left before a running prediction finishes. */
  pollsLeft: number;
}

/**
 * Replicate's HTTP API on a MockUpstream: predictions of official models
 * (`POST /v1/models/{owner}/{name}/predictions`) and of versions (`POST /v1/predictions`),
 * `Prefer: wait`, `GET /v1/predictions/{id}`, cancel, and the output stream at `urls.stream`
 * (`event: output` / `event: done` / `event: error`). The bearer key is checked as Replicate
 * does, answering problem+json. Models: any `…/…flux…` is an image model (one URL per
 * `num_outputs`); `slow/llm` is still `processing` when `Prefer: wait` gives up and finishes
 * after one poll; `broken/llm` fails at run time; `poor/llm` answers 402 (no credit); every other
 * model is a language model answering REPLICATE_TOKENS.
 */
export class MockReplicate {
  readonly predictions = new Map<string, Prediction>();
  /** Where the predictions' stream URLs point: the mock's own base URL unless a test moves them. */
  streamBase: string;
  private next = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.streamBase = baseUrl;
  }

  readonly handler = (request: ReceivedRequest): MockReply => {
    const path = request.path.split('?')[0];
    if (path.startsWith('/files/')) return { status: 200, text: Buffer.from('RIFF-mock-webp'), contentType: 'image/webp' };
    if (request.headers.authorization !== `Bearer ${this.apiKey}`) return problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
    const official = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (request.method === 'POST' && (official || path === '/v1/predictions')) {
      const version = official ? undefined : String(request.body.version ?? '');
      return this.create(request, official ? `${decodeURIComponent(official[1])}/${decodeURIComponent(official[2])}` : version!.split(':')[0], version);
    }
    const read = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    const prediction = read ? this.predictions.get(read[1]) : undefined;
    if (read && prediction) {
      if (read[2]) prediction.status = 'canceled';
      else if (request.method === 'GET') this.advance(prediction);
      return { status: 200, json: this.view(prediction) };
    }
    const stream = /^\/v1\/streams\/([^/]+)$/.exec(path);
    const streamed = stream ? this.predictions.get(stream[1]) : undefined;
    if (streamed && request.method === 'GET') {
      if (!String(request.headers.accept).includes('text/event-stream')) return problem(406, 'Not Acceptable', 'Streams are served as text/event-stream');
      streamed.status = 'succeeded';
      streamed.output = REPLICATE_TOKENS;
      const events = REPLICATE_TOKENS.map((token) => `event: output\nid: ${streamed.id}:${token.length}\ndata: ${token}\n\n`);
      return { status: 200, text: `${events.join('')}event: done\ndata: {}\n\n`, contentType: 'text/event-stream' };
    }
    return problem(404, 'Not found', `The mock has no ${request.method} ${path}`);
  };

  private create(request: ReceivedRequest, model: string, version: string | undefined): MockReply {
    if (model === 'poor/llm') return problem(402, 'Insufficient credit', 'You have insufficient credit to run this model. Go to https://replicate.com/account/billing to purchase credit.');
    const input = (request.body.input ?? {}) as Record<string, unknown>;
    if (typeof input.prompt !== 'string' || input.prompt === '') return problem(422, 'Input validation failed', 'input: prompt is required');
    const prediction: Prediction = { id: `pred${++this.next}`, model, version, input, status: 'starting', output: null, error: null, pollsLeft: model === 'slow/llm' ? 1 : 0 };
    this.predictions.set(prediction.id, prediction);
    const waits = request.headers.prefer === 'wait';
    if (waits) this.advance(prediction);
    return { status: 201, json: this.view(prediction) };
  }

  /** One step of a prediction's run: a waited-for or polled prediction finishes unless it still has polls left. */
  private advance(prediction: Prediction): void {
    if (prediction.status === 'succeeded' || prediction.status === 'failed' || prediction.status === 'canceled') return;
    if (prediction.pollsLeft > 0) {
      prediction.pollsLeft--;
      prediction.status = 'processing';
      return;
    }
    if (prediction.model === 'broken/llm') {
      prediction.status = 'failed';
      prediction.error = 'CUDA out of memory';
      return;
    }
    prediction.status = 'succeeded';
    const images = Number(prediction.input.num_outputs ?? 1);
    prediction.output = prediction.model.includes('flux') ? Array.from({ length: images }, (_, index) => `${this.baseUrl}/files/${prediction.id}-${index}.webp`) : REPLICATE_TOKENS;
  }

  private view(prediction: Prediction): Record<string, unknown> {
    const finished = prediction.status === 'succeeded' && !prediction.model.includes('flux');
    return {
      id: prediction.id,
      model: prediction.model,
      version: prediction.version ?? 'hidden',
      input: prediction.input,
      logs: '',
      output: prediction.output,
      error: prediction.error,
      status: prediction.status,
      created_at: '2026-11-27T01:00:00.000Z',
      data_removed: false,
      metrics: finished ? REPLICATE_METRICS : prediction.status === 'succeeded' ? { predict_time: 1.2 } : {},
      urls: {
        get: `${this.baseUrl}/v1/predictions/${prediction.id}`,
        cancel: `${this.baseUrl}/v1/predictions/${prediction.id}/cancel`,
        stream: `${this.streamBase}/v1/streams/${prediction.id}`,
        web: `https://replicate.com/p/${prediction.id}`,
      },
    };
  }
}

function problem(status: number, title: string, detail: string): MockReply {
  return { status, text: JSON.stringify({ title, detail, status }), contentType: 'application/problem+json; charset=utf-8' };
}
