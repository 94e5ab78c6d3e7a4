import { RelayError } from '../relay-error';

/**
 * The texts of an OpenAI embeddings `input` (a string or a list of them), for providers that
 * embed text only and take a list: token arrays are refused as the request's fault.
 */
export function embeddingTexts(input: unknown): string[] {
  const inputs = Array.isArray(input) ? input : [input];
  if (!inputs.every((item): item is string => typeof item === 'string')) {
    throw new RelayError('invalid_request', 'This model embeds text only: send input as a string or a list of strings', 400);
  }
  return inputs;
}
