import { useEffect, useState } from 'react';
import { Alert, Box, CircularProgress } from '@mui/material';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { signedOutDestination, useSessionUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { useStatus } from '../status/StatusProvider';
import { chatTarget, type ChatTarget } from './chatTarget';

/** After the no-token error, the user is sent to the token page to make one. */
const TOKEN_PAGE_DELAY_MS = 1500;

/** /chat/:id (public): the configured chat link at `id` in a full-page iframe; sign-in is asked only for a {key} link. */
export function ChatPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { status, loaded } = useStatus();
  const navigate = useNavigate();
  const [target, setTarget] = useState<ChatTarget | null>(null);
  const index = Number(id ?? 0) || 0;
  const signedIn = useSessionUser() !== null;

  useEffect(() => {
    if (!loaded) return;
    let active = true;
    void chatTarget(status, index, signedIn).then((found) => {
      if (!active) return;
      setTarget(found);
      if (!found.ok && found.reason === 'noToken') {
        toast.error(t('chat:noToken'));
        setTimeout(() => navigate('/token'), TOKEN_PAGE_DELAY_MS);
      }
    });
    return () => {
      active = false;
    };
  }, [loaded, status, index, signedIn, navigate, t]);

  if (!target) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (!target.ok && target.reason === 'signIn') return <Navigate to={signedOutDestination()} replace />;
  if (!target.ok) {
    return (
      <Alert severity="error" sx={{ m: 3 }} data-testid="chat-error">
        {t(`chat:${target.reason}`)}
      </Alert>
    );
  }
  return <Box component="iframe" src={target.url} title={t('chat:title')} data-testid="chat-frame" sx={{ border: 0, width: '100%', height: 'calc(100vh - 64px)', display: 'block' }} />;
}

/** /chat2link: goes straight to the first chat link, filled with the token and address. */
export function Chat2LinkPage() {
  const { t } = useTranslation();
  const { status, loaded } = useStatus();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!loaded) return;
    void chatTarget(status, 0).then((found) => {
      if (found.ok) window.location.replace(found.url);
      else setFailure(found.reason);
    });
  }, [loaded, status]);

  return failure ? (
    <Alert severity="error" sx={{ m: 3 }} data-testid="chat-error">
      {t(`chat:${failure}`)}
    </Alert>
  ) : (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      <CircularProgress />
    </Box>
  );
}
