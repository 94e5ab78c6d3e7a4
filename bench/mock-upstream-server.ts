import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerStatsRequests, type ReadyMessage } from './process-stats';

/**
 * A fast OpenAI-like upstream for the benchmark: fixed answers, no work. A body with
 * "bench_slow": true streams slowly (one chunk every 250 ms for ~4 s), to hold streams open.
 */
const ANSWER = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
});
const CHUNK = (content: string) => `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench-model","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}]}\n\n`;
const STREAM_HEAD = ['Hello', '! How', ' can', ' I', ' help', ' you', ' today', '?'].map(CHUNK).join('');
const STREAM_TAIL =
  'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench-model","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29}}\n\ndata: [DONE]\n\n';

/** The same answer in Claude's Messages format, for the native (converted) case. */
const CLAUDE_EVENT = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const CLAUDE_ANSWER = JSON.stringify({
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'bench-claude',
  content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 20, output_tokens: 9 },
});
const CLAUDE_STREAM =
  CLAUDE_EVENT('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench-claude', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } } }) +
  CLAUDE_EVENT('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  ['Hello', '! How', ' can', ' I', ' help', ' you', ' today', '?'].map((text) => CLAUDE_EVENT('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })).join('') +
  CLAUDE_EVENT('content_block_stop', { index: 0 }) +
  CLAUDE_EVENT('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }) +
  CLAUDE_EVENT('message_stop', {});

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (request.url?.startsWith('/v1/messages')) {
      const stream = body.includes('"stream":true');
      const answer = stream ? CLAUDE_STREAM : CLAUDE_ANSWER;
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json', 'content-length': Buffer.byteLength(answer) });
      response.end(answer);
      return;
    }
    if (!body.includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) });
      response.end(ANSWER);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (!body.includes('"bench_slow":true')) {
      response.write(STREAM_HEAD);
      response.end(STREAM_TAIL);
      return;
    }
    let sent = 0;
    const timer = setInterval(() => {
      if (sent++ < 16) response.write(CHUNK('tick '));
      else {
        clearInterval(timer);
        response.end(STREAM_TAIL);
      }
    }, 250);
    response.on('close', () => clearInterval(timer));
  });
});
server.keepAliveTimeout = 65_000;
server.maxConnections = 10_000;
answerStatsRequests();
server.listen(0, '127.0.0.1', () => {
  const ready: ReadyMessage = { kind: 'ready', port: (server.address() as AddressInfo).port };
  process.send?.(ready);
});
