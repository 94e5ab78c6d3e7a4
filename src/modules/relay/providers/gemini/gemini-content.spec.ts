import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GEMINI_FORMAT } from '../../formats/gemini.format';
import type { JsonObject } from '../../wire/wire-format';
import { SseJsonDecoder } from '../../wire/sse-decoder';
import { UsageMeter } from '../../wire/usage';
import { GeminiChunkTranslator, geminiRequestFromOpenAI, openAIResponseFromGemini } from './gemini-content';

/** Golden fixtures of every Gemini ⇄ OpenAI conversion, checked without the app. */
const fixture = (name: string): string => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const json = (name: string): JsonObject => JSON.parse(fixture(name)) as JsonObject;
const SAFETY = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }];
const fetched = (url: string) => Promise.resolve({ mimeType: 'image/jpeg', data: Buffer.from(url).toString('base64') });
const options = { model: 'gemini-2.5-flash', includeUsage: false };

describe('OpenAI chat → Gemini (channel side)', () => {
  it('converts system, images (inline and fetched), tool calls and results, tools, tool_choice, stops and sampling', async () => {
    expect(await geminiRequestFromOpenAI(json('openai-chat.request.json'), { safetySettings: SAFETY }, fetched)).toEqual(json('gemini.request.json'));
  });

  it("cleans JSON Schemas into Gemini's subset (tool parameters and response_format), which refuses additionalProperties and the like", async () => {
    const strict = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { city: { type: 'string', description: 'City' }, unit: { type: ['string', 'null'], enum: ['C', 'F'] }, tags: { type: 'array', items: { type: 'string', const: 'x' } }, any: { oneOf: [{ type: 'string' }, { type: 'number', exclusiveMinimum: 0 }] } },
      required: ['city'],
    };
    const cleaned = {
      type: 'object',
      properties: { city: { type: 'string', description: 'City' }, unit: { type: 'string', nullable: true, enum: ['C', 'F'] }, tags: { type: 'array', items: { type: 'string', enum: ['x'] } }, any: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      required: ['city'],
    };
    const body = {
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'weather', parameters: strict, strict: true } }, { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: strict } },
    };
    const request = await geminiRequestFromOpenAI(body, { safetySettings: SAFETY }, fetched);
    expect(request.tools).toEqual([{ functionDeclarations: [{ name: 'weather', parameters: cleaned }, { name: 'now' }] }]);
    expect(request.generationConfig).toEqual({ responseMimeType: 'application/json', responseSchema: cleaned });
    const json = await geminiRequestFromOpenAI({ ...body, tools: undefined, response_format: { type: 'json_object' } }, { safetySettings: SAFETY }, fetched);
    expect(json.generationConfig).toEqual({ responseMimeType: 'application/json' });
  });

  it('reads a blocked prompt (no candidates, a blockReason) as a content_filter choice, whole and streamed', () => {
    const blocked = { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } };
    expect(openAIResponseFromGemini(blocked, 'gemini-2.5-flash').choices).toEqual([{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }]);
    const chunks = new GeminiChunkTranslator('gemini-2.5-flash', new UsageMeter()).translate(blocked);
    expect(chunks).toMatchObject([{ choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: 'content_filter' }] }]);
  });

  it('reads a Gemini answer back as an OpenAI completion: thoughts as reasoning, cached tokens, a function call', () => {
    const answer = openAIResponseFromGemini(json('gemini.response.json'), 'gemini-2.5-flash');
    expect({ ...answer, created: undefined }).toEqual({ ...json('openai.response.json'), created: undefined });
  });

  it('decodes the SSE stream into OpenAI chunks, usage from the last running total', () => {
    const usage = new UsageMeter();
    const chunks = new GeminiChunkTranslator('gemini-2.5-flash', usage);
    const decoder = new SseJsonDecoder((answer) => chunks.translate(answer));
    const bytes = Buffer.from(fixture('gemini.stream.sse'));
    const out = [...decoder.push(bytes.subarray(0, 200)), ...decoder.push(bytes.subarray(200)), ...decoder.end()];
    expect(out.map((chunk) => (chunk.choices as JsonObject[])[0])).toEqual(json('openai.stream-chunks.json'));
    expect(usage.total).toMatchObject({ promptTokens: 40, completionTokens: 20, reasoningTokens: 3, cachedTokens: 10 });
  });
});

describe('Gemini → OpenAI chat (inbound Gemini endpoints)', () => {
  it('converts the request', () => {
    expect(GEMINI_FORMAT.toOpenAIRequest(json('gemini.request.json'))).toEqual(json('openai-from-gemini.request.json'));
  });

  it("turns the SDK's schemas (upper-case types, nullable) into JSON Schema, for tools and a JSON answer", () => {
    const schema = { type: 'OBJECT', properties: { city: { type: 'STRING', nullable: true }, days: { type: 'ARRAY', items: { type: 'INTEGER' } } }, required: ['city'], propertyOrdering: ['city', 'days'] };
    const jsonSchema = { type: 'object', properties: { city: { type: ['string', 'null'] }, days: { type: 'array', items: { type: 'integer' } } }, required: ['city'] };
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'weather', parameters: schema }] }], generationConfig: { responseMimeType: 'application/json', responseSchema: schema } };
    expect(GEMINI_FORMAT.toOpenAIRequest(body)).toMatchObject({ tools: [{ type: 'function', function: { name: 'weather', parameters: jsonSchema } }], response_format: { type: 'json_schema', json_schema: { name: 'response', schema: jsonSchema } } });
    expect(GEMINI_FORMAT.toOpenAIRequest({ ...body, generationConfig: { responseMimeType: 'application/json' } }).response_format).toEqual({ type: 'json_object' });
  });

  it('converts an OpenAI answer into a Gemini answer', () => {
    expect(GEMINI_FORMAT.fromOpenAIResponse(json('openai.response.json'), options)).toEqual(json('gemini-from-openai.response.json'));
  });

  it('encodes OpenAI chunks as Gemini SSE, the function call whole, the usage last', () => {
    const encoder = GEMINI_FORMAT.createStreamEncoder(options);
    let sse = '';
    for (const choice of json('openai.stream-chunks.json') as unknown as JsonObject[]) sse += encoder.encode({ id: 'resp_02', choices: [choice] });
    sse += encoder.end({ promptTokens: 40, completionTokens: 20, cachedTokens: 10, cacheWriteTokens: 0, reasoningTokens: 3, audioInputTokens: 0, audioOutputTokens: 0, imageInputTokens: 0, imageOutputTokens: 0 });
    expect(sse).toBe(fixture('gemini-from-openai.stream.sse'));
  });
});
