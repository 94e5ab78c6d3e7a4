import type { MockHandler, MockReply, ReceivedRequest } from './mock-upstream';

export const FASTGPT_REPLY_TEXT = 'Hello from mock FastGPT!';
/** The counts FastGPT writes in place of real ones (its docs: it reports no real usage). */
export const FASTGPT_STAND_IN_USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 1 };

/** FastGPT's named error, answered with HTTP 200 as its jsonRes does. */
function refusal(code: number, statusText: string, message: string): MockReply {
  return { status: 200, json: { code, statusText, message, data: null } };
}

/**
 * A FastGPT app's OpenAI-shaped chat completions (under `/api`) on the mock upstream, keyed by
 * the app's bearer key (a wrong one: its `unAuthApiKey` error in a 200 answer). With
 * `detail: true` it answers as FastGPT does then (node results, named stream events), which
 * the gateway must never ask for; `usage` is what its answers report.
 */
export function fastGptReply(key: string, usage: object = FASTGPT_STAND_IN_USAGE): MockHandler {
  return (request: ReceivedRequest) => {
    if (request.headers.authorization !== `Bearer ${key}`) return refusal(514, 'unAuthApiKey', 'Api Key 不合法');
    if (request.path !== '/api/v1/chat/completions') return { status: 404, json: { code: 404, statusText: 'notFound', message: `mock has no ${request.path}` } };
    const body = request.body;
    const detail = body.detail !== false;
    const base = { id: String(body.chatId ?? ''), object: '', created: 0, model: '' };
    if (body.stream === true) {
      const chunks = [...FASTGPT_REPLY_TEXT.split(/(?<= )/).map((content) => ({ delta: { content }, index: 0, finish_reason: null })), { delta: {}, index: 0, finish_reason: 'stop' }];
      const events = chunks.map((choice) => `${detail ? 'event: answer\n' : ''}data: ${JSON.stringify({ ...base, choices: [choice] })}\n\n`);
      return { status: 200, text: `${detail ? 'event: flowNodeStatus\ndata: {"status":"running","name":"AI 对话"}\n\n' : ''}${events.join('')}data: [DONE]\n\n`, contentType: 'text/event-stream' };
    }
    const answer = { ...base, usage, choices: [{ message: { role: 'assistant', content: FASTGPT_REPLY_TEXT }, finish_reason: 'stop', index: 0 }] };
    return { status: 200, json: detail ? { responseData: [{ moduleName: 'AI 对话', tokens: 33 }], ...answer } : answer };
  };
}
