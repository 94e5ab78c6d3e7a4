import type { OpenAPIObject } from '@nestjs/swagger';

type PathsObject = OpenAPIObject['paths'];

/** A relay body: passed through in the provider's own wire format; only `model` matters to the gateway. */
const modelBody = (example: Record<string, unknown>) => ({
  required: true,
  content: { 'application/json': { schema: { type: 'object', required: ['model'], properties: { model: { type: 'string' } }, additionalProperties: true }, example } },
});

const relayAnswer = (description: string) => ({
  '200': { description, content: { 'application/json': { schema: { type: 'object', additionalProperties: true } }, 'text/event-stream': { schema: { type: 'string' } } } },
  '401': { description: 'Missing or unknown API key, in the caller’s wire format' },
  '429': { description: 'Rate limit or quota refused' },
});

const relayOperation = (operationId: string, summary: string, example: Record<string, unknown>, answer: string) => ({
  post: { operationId, summary, tags: ['relay'], security: [{ apiKey: [] }], requestBody: modelBody(example), responses: relayAnswer(answer) },
});

/**
 * The main relay endpoints. They are served off Node's server ahead of Nest (src/modules/relay),
 * so no controller describes them: this short static section does, in the providers' own formats
 * (not the `{success, message, data}` envelope). The other relay paths (images, audio, Gemini,
 * tasks, Midjourney) follow their providers' documentation.
 */
export const RELAY_PATHS: PathsObject = {
  '/v1/chat/completions': relayOperation(
    'relay_chatCompletions',
    'OpenAI chat completions (stream with "stream": true)',
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] },
    'An OpenAI chat completion, or its server-sent events',
  ),
  '/v1/messages': relayOperation(
    'relay_claudeMessages',
    'Anthropic messages (stream with "stream": true)',
    { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] },
    'An Anthropic message, or its server-sent events',
  ),
  '/v1/embeddings': relayOperation('relay_embeddings', 'OpenAI embeddings', { model: 'text-embedding-3-small', input: 'Hello' }, 'An OpenAI embedding list'),
  '/v1/rerank': relayOperation('relay_rerank', 'Rerank (Jina/Cohere shape)', { model: 'rerank-v3.5', query: 'Hello', documents: ['Hi', 'Bye'] }, 'Ranked documents with their scores'),
  '/v1/models': {
    get: {
      operationId: 'relay_models',
      summary: 'The models the API key may call (OpenAI list shape)',
      tags: ['relay'],
      security: [{ apiKey: [] }],
      responses: { '200': { description: 'An OpenAI model list', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } } },
    },
  },
};
