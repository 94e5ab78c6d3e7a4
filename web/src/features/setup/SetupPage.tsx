import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormLabel,
  IconButton,
  Radio,
  RadioGroup,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import HelpOutlinedIcon from '@mui/icons-material/HelpOutlineOutlined';
import { Controller, useForm } from 'react-hook-form';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/form/FormTextField';
import { NewPasswordFields } from '../../components/form/NewPasswordFields';
import { toast } from '../../lib/toast';
import { AuthCard } from '../auth/AuthCard';
import { setupApi, type SetupStatus } from './api';

type UsageMode = 'external' | 'self' | 'demo';
const USAGE_MODES: UsageMode[] = ['external', 'self', 'demo'];
const RELOAD_DELAY_MS = 1500;

interface SetupForm {
  username: string;
  password: string;
  confirmPassword: string;
  usageMode: UsageMode;
}

/** First-run setup: the administrator account (unless it exists) and the usage mode. */
export function SetupPage() {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<SetupStatus | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [modeHelpOpen, setModeHelpOpen] = useState(false);
  const [done, setDone] = useState(false);
  const { control, handleSubmit, formState } = useForm<SetupForm>({
    defaultValues: { username: '', password: '', confirmPassword: '', usageMode: 'external' },
  });

  useEffect(() => {
    void setupApi.status().then((result) => {
      if (result.ok) setSetup(result.data);
      else {
        setLoadFailed(true);
        toast.error(t('setup:errors.loadFailed'));
      }
    });
  }, [t]);

  if (setup?.status) return <Navigate to="/" replace />;

  async function onSubmit(values: SetupForm) {
    const result = await setupApi.initialise({
      username: values.username.trim(),
      password: values.password,
      confirmPassword: values.confirmPassword,
      SelfUseModeEnabled: values.usageMode === 'self',
      DemoSiteEnabled: values.usageMode === 'demo',
    });
    if (!result.ok) {
      toast.error(result.message || t('setup:errors.initFailed'));
      return;
    }
    setDone(true);
    toast.success(t('setup:success'));
    window.setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
  }

  return (
    <AuthCard title={t('setup:title')} subtitle={t('setup:subtitle')} width={560}>
      {!setup && !loadFailed && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress />
        </Box>
      )}
      {loadFailed && <Alert severity="error">{t('setup:errors.loadFailed')}</Alert>}
      {setup && (
        <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
          <Stack spacing={2.5}>
            {setup.database_type === 'sqlite' && (
              <Alert severity="warning" data-testid="sqlite-warning">
                {t('setup:sqliteWarning')}
              </Alert>
            )}
            {setup.root_init ? (
              <Alert severity="info">{t('setup:adminExists')}</Alert>
            ) : (
              <>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {t('setup:adminSection')}
                </Typography>
                <FormTextField
                  name="username"
                  control={control}
                  rules={{ validate: (value) => value.trim() !== '' || 'setup:validation.usernameRequired' }}
                  label={t('setup:fields.username')}
                  autoComplete="username"
                />
                <NewPasswordFields
                  control={control}
                  name="password"
                  label={t('setup:fields.password')}
                  emptyMessage="setup:validation.passwordTooShort"
                  confirmName="confirmPassword"
                  confirmLabel={t('setup:fields.confirmPassword')}
                />
              </>
            )}
            <Box>
              <Stack direction="row" sx={{ alignItems: 'center' }}>
                <FormLabel id="usage-mode-label" sx={{ fontWeight: 600, color: 'text.primary' }}>
                  {t('setup:usageMode.label')}
                </FormLabel>
                <Tooltip title={t('setup:usageMode.help')}>
                  <IconButton size="small" onClick={() => setModeHelpOpen(true)} aria-label={t('setup:usageMode.help')}>
                    <HelpOutlinedIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
              <Controller
                name="usageMode"
                control={control}
                render={({ field }) => (
                  <RadioGroup {...field} aria-labelledby="usage-mode-label">
                    {USAGE_MODES.map((mode) => (
                      <FormControlLabel
                        key={mode}
                        value={mode}
                        control={<Radio />}
                        label={
                          <Box>
                            <Typography variant="body2" sx={{ fontWeight: 500 }}>
                              {t(`setup:usageMode.${mode}.title`)}
                            </Typography>
                            <Typography variant="caption" color="text.secondary">
                              {t(`setup:usageMode.${mode}.short`)}
                            </Typography>
                          </Box>
                        }
                        sx={{ alignItems: 'flex-start', mt: 1, '& .MuiRadio-root': { pt: 0.5 } }}
                      />
                    ))}
                  </RadioGroup>
                )}
              />
            </Box>
            <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting || done} data-testid="setup-submit">
              {t('setup:submit')}
            </Button>
          </Stack>
        </Box>
      )}
      <Dialog open={modeHelpOpen} onClose={() => setModeHelpOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{t('setup:usageMode.label')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            {USAGE_MODES.map((mode) => (
              <Box key={mode}>
                <Typography sx={{ fontWeight: 600 }}>{t(`setup:usageMode.${mode}.title`)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t(`setup:usageMode.${mode}.detail`)}
                </Typography>
              </Box>
            ))}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setModeHelpOpen(false)}>{t('common:actions.close')}</Button>
        </DialogActions>
      </Dialog>
    </AuthCard>
  );
}
