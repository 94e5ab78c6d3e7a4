import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../api/client';

/**
 * The three steps of a passkey ceremony: the server's challenge, the browser's prompt (null
 * when closed or failed; it has said why), and the signed answer back to the server.
 */
export interface PasskeyCeremony<Options, Answer, Result> {
  options: () => Promise<ApiResult<Options>>;
  prompt: (options: Options, t: TFunction) => Promise<Answer | null>;
  submit: (answer: Answer) => Promise<ApiResult<Result>>;
}

/** Runs a passkey ceremony on a click; `busy` while it is under way, `onDone` with the server's accepting answer. */
export function usePasskeyCeremony<Options, Answer, Result>(ceremony: PasskeyCeremony<Options, Answer, Result>, onDone: (result: Result, message: string) => void) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    try {
      const options = await ceremony.options();
      if (!options.ok) return;
      const answer = await ceremony.prompt(options.data, t);
      if (!answer) return;
      const result = await ceremony.submit(answer);
      if (result.ok) onDone(result.data, result.message);
    } finally {
      setBusy(false);
    }
  }

  return { busy, run };
}
