import type { MockReply, ReceivedRequest } from './mock-upstream';

/**
 * Mocks of the embeddings and rerank providers beside Cohere (mock-cohere.ts): Jina AI's API,
 * a self-hosted M3E server (the m3e-large-api that One API and FastGPT document) and
 * Xinference's rerank. Each checks its bearer key and answers errors in its own shape.
 */

export const JINA_KEY = 'jina_upstream_secret_0123456789';
export const M3E_KEY = 'sk-aaabbbcccdddeeefffggghhhiiijjjkkk';
/** Jina bills this many tokens per rerank call in the mock (usage.total_tokens). */
export const JINA_RERANK_TOKENS = 42;
/** Jina bills this many tokens per embedded input. */
export const JINA_TOKENS_PER_INPUT = 4;
/** Xinference reports this many input tokens per rerank call (meta.tokens). */
export const XINFERENCE_RERANK_TOKENS = 24;
export const EMBEDDING = [0.25, -0.5, 1];

function bearer(request: ReceivedRequest): string {
  return String(request.headers.authorization ?? '').replace(/^Bearer /, '');
}

/** Scores documents by the query words they contain, best first, cut to top_n. */
function ranked(body: Record<string, unknown>): Array<{ index: number; text: string; relevance_score: number }> {
  const words = String(body.query).toLowerCase().split(/\W+/).filter(Boolean);
  const documents = (body.documents as unknown[]).map((document) => (typeof document === 'string' ? document : String((document as { text?: unknown }).text)));
  const scored = documents.map((text, index) => ({ index, text, relevance_score: words.filter((word) => text.toLowerCase().includes(word)).length / words.length }));
  scored.sort((a, b) => b.relevance_score - a.relevance_score);
  return typeof body.top_n === 'number' ? scored.slice(0, body.top_n) : scored;
}

/** Float32 little-endian vectors in base64, as Jina's `embedding_type: "base64"` and OpenAI's `encoding_format: "base64"` give them. */
function base64Vector(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/**
 * Jina AI: /v1/embeddings (the encoding is `embedding_type`; it knows no `encoding_format`, so
 * vectors come as floats whatever that says) and /v1/rerank (documents back unless
 * `return_documents` is false), usage as `total_tokens`; 401 and 402 as `{"detail": …}`.
 */
export function jinaReply(request: ReceivedRequest): MockReply {
  const key = bearer(request);
  if (key !== JINA_KEY) return { status: 401, json: { detail: 'Unauthorized: Invalid API key' } };
  const path = request.path.split('?')[0];
  const body = request.body;
  if (path === '/v1/embeddings') {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const tokens = JINA_TOKENS_PER_INPUT * inputs.length;
    const data = inputs.map((_, index) => ({ object: 'embedding', index, embedding: body.embedding_type === 'base64' ? base64Vector(EMBEDDING) : EMBEDDING }));
    return { status: 200, json: { model: body.model, object: 'list', usage: { total_tokens: tokens, prompt_tokens: tokens }, data } };
  }
  if (path === '/v1/rerank') {
    if (typeof body.query !== 'string' || !Array.isArray(body.documents)) return { status: 422, json: { detail: 'query and documents are required' } };
    const results = ranked(body).map(({ index, text, relevance_score }) => ({ index, ...(body.return_documents === false ? {} : { document: { text } }), relevance_score }));
    return { status: 200, json: { model: body.model, usage: { total_tokens: JINA_RERANK_TOKENS, prompt_tokens: JINA_RERANK_TOKENS }, results } };
  }
  return { status: 404, json: { detail: 'Not Found' } };
}

/**
 * A self-hosted M3E server: POST /v1/embeddings only; `input` must be a list of strings
 * (FastAPI's 422 otherwise), vectors always floats, `usage.prompt_tokens` the number of
 * whitespace-separated words and `total_tokens` the tokenizer's count (here: characters / 2).
 */
export function m3eReply(request: ReceivedRequest): MockReply {
  if (bearer(request) !== M3E_KEY) return { status: 401, json: { detail: 'Invalid authorization code' } };
  if (request.path !== '/v1/embeddings') return { status: 404, json: { detail: 'Not Found' } };
  const input = request.body.input;
  if (!Array.isArray(input) || input.some((text) => typeof text !== 'string')) {
    return { status: 422, json: { detail: [{ loc: ['body', 'input'], msg: 'value is not a valid list', type: 'type_error.list' }] } };
  }
  const texts = input as string[];
  return {
    status: 200,
    json: {
      data: texts.map((_, index) => ({ embedding: EMBEDDING, index, object: 'embedding' })),
      model: request.body.model,
      object: 'list',
      usage: { prompt_tokens: texts.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0), total_tokens: texts.reduce((sum, text) => sum + Math.ceil(text.length / 2), 0) },
    },
  };
}

/** Xinference's /v1/rerank: Cohere's shape, its input tokens in `meta.tokens` (output tokens repeat them). */
export function xinferenceReply(request: ReceivedRequest): MockReply {
  if (request.path !== '/v1/rerank') return { status: 404, json: { detail: 'Not Found' } };
  const results = ranked(request.body).map(({ index, text, relevance_score }) => ({ index, relevance_score, document: request.body.return_documents === true ? { text } : null }));
  const tokens = { input_tokens: XINFERENCE_RERANK_TOKENS, output_tokens: XINFERENCE_RERANK_TOKENS };
  return { status: 200, json: { id: 'xinference-rerank-1', results, meta: { api_version: null, billed_units: null, tokens, warnings: null } } };
}
