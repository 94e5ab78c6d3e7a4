import { Box, Button, Card, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { fromInputValue, toInputValue, type TaskLogFilters } from './api';

interface TaskFiltersProps {
  filters: TaskLogFilters;
  admin: boolean;
  /** 1000 when the log's timestamps are seconds, 1 when milliseconds. */
  unitMs: number;
  onChange: (filters: TaskLogFilters) => void;
  onQuery: () => void;
}

/** The drawing and task logs' filters: channel (admins), task id, start and end, and Query. */
export function TaskFilters({ filters, admin, unitMs, onChange, onQuery }: TaskFiltersProps) {
  const { t } = useTranslation();
  const update = (change: Partial<TaskLogFilters>) => onChange({ ...filters, ...change });
  return (
    <Card sx={{ mb: 2 }}>
      <Box sx={{ p: 2, display: 'grid', gap: 1.5, alignItems: 'center', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: admin ? 'repeat(4, 1fr) auto' : 'repeat(3, 1fr) auto' } }}>
        {admin && (
          <TextField
            label={t('tasks:filters.channel')}
            value={filters.channel_id}
            onChange={(event) => update({ channel_id: event.target.value.replace(/\D/g, '') })}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'task-filter-channel' } }}
          />
        )}
        <TextField label={t('tasks:filters.taskId')} value={filters.task_id} onChange={(event) => update({ task_id: event.target.value })} slotProps={{ htmlInput: { 'data-testid': 'task-filter-id' } }} />
        {(['start', 'end'] as const).map((edge) => {
          const key = `${edge}_timestamp` as const;
          return (
            <TextField
              key={edge}
              type="datetime-local"
              label={t(`tasks:filters.${edge}`)}
              value={toInputValue(filters[key] * unitMs)}
              onChange={(event) => update({ [key]: Math.floor(fromInputValue(event.target.value) / unitMs) })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `task-filter-${edge}` } }}
            />
          );
        })}
        <Button variant="contained" startIcon={<SearchIcon />} onClick={onQuery} data-testid="task-query">
          {t('tasks:query')}
        </Button>
      </Box>
    </Card>
  );
}
