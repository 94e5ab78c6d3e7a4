import { getSessionUser } from '../../lib/session';

export interface ChatRequestMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The playground's request body (spec: messages, stream, model, group, max_tokens, temperature). */
export interface ChatRequest {
  messages: ChatRequestMessage[];
  stream: true;
  model: string;
  group: string;
  max_tokens?: number;
  temperature: number;
}

export interface StreamHandlers {
  onDelta: (text: string) => void;
  onDone: () => void;
  onError: (message: string) => void;
}

interface StreamChunk {
  choices?: { delta?: { content?: string | null } }[];
  error?: { message?: string };
}

/** Reads an error body in OpenAI's shape, our envelope, or plain text. */
async function errorText(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: string }; message?: string };
    return body.error?.message || body.message || text || `HTTP ${response.status}`;
  } catch {
    return text || `HTTP ${response.status}`;
  }
}

/**
 * Posts to /pg/chat/completions (session cookie plus New-Api-User) and feeds the server-sent
 * events to the handlers: each `data:` chunk's choices[0].delta.content, then [DONE].
 */
export async function streamChat(body: ChatRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  const user = getSessionUser();
  let response: Response;
  try {
    response = await fetch('/pg/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...(user ? { 'New-Api-User': String(user.id) } : {}) },
      credentials: 'same-origin',
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (!signal.aborted) handlers.onError((error as Error).message);
    return;
  }
  if (!response.ok || !response.body) {
    handlers.onError(await errorText(response));
    return;
  }

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const trimmed = line.trim();
        if (!trimmed.startsWith('data:')) continue;
        const data = trimmed.slice(5).trim();
        if (data === '[DONE]') {
          handlers.onDone();
          return;
        }
        let chunk: StreamChunk;
        try {
          chunk = JSON.parse(data) as StreamChunk;
        } catch {
          continue;
        }
        if (chunk.error) {
          handlers.onError(chunk.error.message ?? data);
          return;
        }
        const delta = chunk.choices?.[0]?.delta?.content;
        if (delta) handlers.onDelta(delta);
      }
    }
    handlers.onDone();
  } catch (error) {
    if (!signal.aborted) handlers.onError((error as Error).message);
  }
}
