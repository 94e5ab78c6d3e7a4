import { useEffect, useRef } from 'react';
import { Box } from '@mui/material';

declare global {
  interface Window {
    onTelegramAuth?: (user: Record<string, string | number>) => void;
  }
}

/** The Telegram login widget, which the messaging provider's script draws into our container. */
export function TelegramWidget({ botName, onAuth }: { botName: string; onAuth: (fields: Record<string, string>) => void }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    window.onTelegramAuth = (fields) => onAuth(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])));
    const script = document.createElement('script');
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-onauth', 'onTelegramAuth(user)');
    script.setAttribute('data-request-access', 'write');
    container.current?.appendChild(script);
    const element = container.current;
    return () => {
      element?.replaceChildren();
      delete window.onTelegramAuth;
    };
  }, [botName, onAuth]);
  return <Box ref={container} sx={{ display: 'flex', justifyContent: 'center' }} />;
}
