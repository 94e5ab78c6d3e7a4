import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CircularProgress,
  IconButton,
  ListSubheader,
  MenuItem,
  Slider,
  Stack,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import DeleteSweepOutlinedIcon from '@mui/icons-material/DeleteSweepOutlined';
import SendIcon from '@mui/icons-material/Send';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import TuneIcon from '@mui/icons-material/Tune';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { MarkdownContent } from '../../components/SafeHtml';
import { formatTokenCount, groupByVendor } from '../models/modelMeta';
import { fetchPricing, type PricingData } from '../pricing/api';
import { useSessionUser } from '../../lib/session';
import { streamChat, type ChatRequestMessage } from './chatStream';

/** A message in the conversation; an assistant reply moves loading → incomplete → complete, or error. */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createAt: number;
  status: 'loading' | 'incomplete' | 'complete' | 'error';
}

export const DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant. You can help me by answering my questions. You can also ask me questions.';
const DEFAULT_MODEL = 'gpt-4o-mini';
const MIN_TEMPERATURE = 0.1;
const MAX_TEMPERATURE = 1;

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const clampTemperature = (value: number) => Math.min(MAX_TEMPERATURE, Math.max(MIN_TEMPERATURE, value));

function MessageBubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const mine = message.role === 'user';
  return (
    <Stack direction={mine ? 'row-reverse' : 'row'} spacing={1.25} sx={{ alignItems: 'flex-start' }} data-testid={`chat-message-${message.role}`} data-status={message.status}>
      <Avatar sx={{ width: 30, height: 30, bgcolor: mine ? 'primary.main' : 'secondary.main', fontSize: 14 }}>{mine ? t('playground:you') : <SmartToyOutlinedIcon fontSize="small" />}</Avatar>
      <Box
        sx={{
          maxWidth: '82%',
          px: 1.75,
          py: 1,
          borderRadius: 2.5,
          bgcolor: mine ? 'primary.main' : 'action.hover',
          color: mine ? 'primary.contrastText' : 'text.primary',
          border: message.status === 'error' ? 1 : 0,
          borderColor: 'error.main',
          '& p': { my: 0.5 },
        }}
      >
        {message.status === 'loading' ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 0.5 }}>
            <CircularProgress size={14} />
            <Typography variant="body2" color="text.secondary">
              {t('playground:thinking')}
            </Typography>
          </Stack>
        ) : mine ? (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {message.content}
          </Typography>
        ) : (
          <MarkdownContent content={message.content} sx={{ fontSize: 14, lineHeight: 1.65, color: message.status === 'error' ? 'error.main' : undefined }} />
        )}
      </Box>
    </Stack>
  );
}

/** Chat with a model through /pg/chat/completions, billed to the signed-in user. */
export function PlaygroundPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const isMobile = useMediaQuery(theme.breakpoints.down('sm'));
  const user = useSessionUser();
  const [searchParams] = useSearchParams();
  const [groups, setGroups] = useState<{ value: string; label: string }[]>([]);
  const [models, setModels] = useState<string[]>([]);
  const [catalogue, setCatalogue] = useState<PricingData | null>(null);
  const [group, setGroup] = useState('');
  const [model, setModel] = useState(DEFAULT_MODEL);
  const [temperature, setTemperature] = useState(MIN_TEMPERATURE);
  const [maxTokens, setMaxTokens] = useState('0');
  const [systemPrompt, setSystemPrompt] = useState(DEFAULT_SYSTEM_PROMPT);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState('');
  const [panelOpen, setPanelOpen] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const busy = messages.some((message) => message.status === 'loading' || message.status === 'incomplete');

  useEffect(() => {
    void api.get<string[]>('/api/user/models').then((result) => {
      if (!result.ok) return;
      const names = result.data ?? [];
      setModels(names);
      setModel((current) => (names.includes(current) || names.length === 0 ? current : names[0]));
    });
    // The pricing answer carries each model's vendor and context length for the picker.
    void fetchPricing().then(setCatalogue);
    void api.get<Record<string, { desc: string; ratio: number }>>('/api/user/self/groups').then((result) => {
      if (!result.ok) return;
      const options = Object.entries(result.data ?? {}).map(([value, choice]) => ({ value, label: `${value} · ${choice.desc} (${choice.ratio})` }));
      setGroups(options);
      setGroup((current) => current || (options.some((option) => option.value === user?.group) ? (user?.group ?? '') : (options[0]?.value ?? '')));
    });
  }, [user?.group]);

  const vendorNames = new Map((catalogue?.vendors ?? []).map((vendor) => [vendor.id, vendor.name]));
  const metaByModel = new Map((catalogue?.models ?? []).map((row) => [row.model_name, row]));
  const modelGroups = groupByVendor(
    models.map((name) => ({ name, vendor_id: metaByModel.get(name)?.vendor_id ?? 0, context_length: metaByModel.get(name)?.context_length ?? 0 })),
    (catalogue?.vendors ?? []).map((vendor) => vendor.id),
  );

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: scrollRef.current.scrollHeight });
  }, [messages]);

  useEffect(() => () => abortRef.current?.abort(), []);

  function updateReply(id: string, change: (message: ChatMessage) => ChatMessage) {
    setMessages((previous) => previous.map((message) => (message.id === id ? change(message) : message)));
  }

  async function send() {
    const text = input.trim();
    if (!text || busy) return;
    const userMessage: ChatMessage = { id: newId(), role: 'user', content: text, createAt: Date.now(), status: 'complete' };
    const reply: ChatMessage = { id: newId(), role: 'assistant', content: '', createAt: Date.now(), status: 'loading' };
    const history: ChatRequestMessage[] = [
      ...(systemPrompt.trim() ? [{ role: 'system' as const, content: systemPrompt.trim() }] : []),
      ...messages.filter((message) => message.status === 'complete').map(({ role, content }) => ({ role, content })),
      { role: 'user', content: text },
    ];
    setMessages((previous) => [...previous, userMessage, reply]);
    setInput('');
    const controller = new AbortController();
    abortRef.current = controller;
    const limit = Number(maxTokens);
    await streamChat(
      {
        messages: history,
        stream: true,
        model,
        group,
        ...(Number.isInteger(limit) && limit > 0 ? { max_tokens: limit } : {}),
        temperature: clampTemperature(temperature),
      },
      {
        onDelta: (delta) => updateReply(reply.id, (message) => ({ ...message, content: message.content + delta, status: 'incomplete' })),
        onDone: () => updateReply(reply.id, (message) => ({ ...message, status: 'complete' })),
        onError: (error) =>
          updateReply(reply.id, (message) => ({ ...message, status: 'error', content: `${message.content}${message.content ? '\n\n' : ''}${t('playground:error', { message: error })}` })),
      },
      controller.signal,
    );
    if (controller.signal.aborted) updateReply(reply.id, (message) => ({ ...message, status: message.content ? 'complete' : 'error', content: message.content || t('playground:stopped') }));
  }

  function stop() {
    abortRef.current?.abort();
  }

  function clearContext() {
    stop();
    setMessages([]);
  }

  const settings = (
    <Stack spacing={2.5} sx={{ p: 2 }}>
      <Typography variant="subtitle2" color="text.secondary">
        {t('playground:settings')}
      </Typography>
      <TextField select label={t('playground:group')} value={groups.length ? group : ''} onChange={(event) => setGroup(event.target.value)} data-testid="pg-group">
        {groups.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField select label={t('playground:model')} value={models.includes(model) ? model : ''} onChange={(event) => setModel(event.target.value)} data-testid="pg-model">
        {modelGroups.flatMap((group) => [
          <ListSubheader key={`vendor-${group.vendorId}`} data-testid={`pg-model-vendor-${group.vendorId}`}>
            {vendorNames.get(group.vendorId) ?? t('playground:otherVendor')}
          </ListSubheader>,
          ...group.items.map(({ name, context_length }) => (
            <MenuItem key={name} value={name} data-testid={`pg-model-option-${name}`}>
              <Box sx={{ display: 'flex', width: '100%', gap: 1, justifyContent: 'space-between' }}>
                <span>{name}</span>
                {context_length > 0 && (
                  <Typography component="span" variant="caption" color="text.secondary">
                    {formatTokenCount(context_length)}
                  </Typography>
                )}
              </Box>
            </MenuItem>
          )),
        ])}
      </TextField>
      <Box>
        <Typography variant="body2" gutterBottom>
          {t('playground:temperature', { value: temperature.toFixed(1) })}
        </Typography>
        <Slider
          value={temperature}
          min={MIN_TEMPERATURE}
          max={MAX_TEMPERATURE}
          step={0.1}
          marks
          valueLabelDisplay="auto"
          onChange={(_, value) => setTemperature(clampTemperature(value as number))}
          aria-label={t('playground:temperatureLabel')}
          data-testid="pg-temperature"
        />
      </Box>
      <TextField
        label={t('playground:maxTokens')}
        value={maxTokens}
        onChange={(event) => setMaxTokens(event.target.value.replace(/\D/g, ''))}
        helperText={t('playground:maxTokensHelp')}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'pg-max-tokens' } }}
      />
      <TextField
        label={t('playground:systemPrompt')}
        value={systemPrompt}
        onChange={(event) => setSystemPrompt(event.target.value)}
        multiline
        minRows={4}
        maxRows={12}
        slotProps={{ htmlInput: { 'data-testid': 'pg-system-prompt' } }}
      />
    </Stack>
  );

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, height: { sm: 'calc(100vh - 64px)' }, minHeight: 520, display: 'flex', flexDirection: 'column', gap: 2 }}>
      {searchParams.get('expired') === 'true' && <Alert severity="warning">{t('playground:expired')}</Alert>}
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
        {isMobile ? (
          <Card>
            <Button fullWidth startIcon={<TuneIcon />} onClick={() => setPanelOpen((open) => !open)} data-testid="pg-panel-toggle" sx={{ justifyContent: 'flex-start', px: 2, py: 1.25 }}>
              {panelOpen ? t('playground:hideSettings') : t('playground:showSettings')}
            </Button>
            {panelOpen && settings}
          </Card>
        ) : (
          <Card sx={{ width: 300, flexShrink: 0, overflowY: 'auto' }}>{settings}</Card>
        )}
        <Card sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: { xs: 480, sm: 0 } }}>
          <Stack direction="row" sx={{ px: 2, py: 1.25, alignItems: 'center', borderBottom: 1, borderColor: 'divider' }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }} noWrap>
              {t('playground:title')}
              <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                {model}
              </Typography>
            </Typography>
            <Tooltip title={t('playground:clear')}>
              <span>
                <IconButton onClick={clearContext} disabled={messages.length === 0} aria-label={t('playground:clear')} data-testid="pg-clear">
                  <DeleteSweepOutlinedIcon />
                </IconButton>
              </span>
            </Tooltip>
          </Stack>
          <Box ref={scrollRef} sx={{ flex: 1, overflowY: 'auto', p: 2 }} data-testid="pg-messages">
            {messages.length === 0 ? (
              <Stack sx={{ height: '100%', minHeight: 240, alignItems: 'center', justifyContent: 'center', color: 'text.secondary', textAlign: 'center' }} spacing={1}>
                <SmartToyOutlinedIcon sx={{ fontSize: 40, opacity: 0.5 }} />
                <Typography variant="body2">{t('playground:empty')}</Typography>
              </Stack>
            ) : (
              <Stack spacing={2}>
                {messages.map((message) => (
                  <MessageBubble key={message.id} message={message} />
                ))}
              </Stack>
            )}
          </Box>
          <Stack direction="row" spacing={1} sx={{ p: 1.5, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}>
            <TextField
              placeholder={t('playground:inputPlaceholder')}
              value={input}
              onChange={(event) => setInput(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  void send();
                }
              }}
              multiline
              maxRows={6}
              slotProps={{ htmlInput: { 'data-testid': 'pg-input', 'aria-label': t('playground:inputPlaceholder') } }}
            />
            {busy ? (
              <Button variant="outlined" color="warning" onClick={stop} startIcon={<StopCircleOutlinedIcon />} sx={{ flexShrink: 0, height: 40 }} data-testid="pg-stop">
                {t('playground:stop')}
              </Button>
            ) : (
              <Button variant="contained" onClick={() => void send()} disabled={!input.trim()} endIcon={<SendIcon />} sx={{ flexShrink: 0, height: 40 }} data-testid="pg-send">
                {t('playground:send')}
              </Button>
            )}
          </Stack>
        </Card>
      </Box>
    </Box>
  );
}
