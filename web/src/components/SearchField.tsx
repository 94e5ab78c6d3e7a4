import { Button, TextField, type SxProps, type Theme } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';

interface SearchFieldProps {
  /** Translated text, shown as the placeholder and used as the input's accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Runs the search when Enter is pressed in the box. */
  onSearch: () => void;
  /** `data-testid` of the input element. */
  testId: string;
  sx?: SxProps<Theme>;
}

/** A table toolbar's keyword box: searches on Enter; the placeholder doubles as its aria-label. */
export function SearchField({ label, value, onChange, onSearch, testId, sx }: SearchFieldProps) {
  return (
    <TextField
      placeholder={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => event.key === 'Enter' && onSearch()}
      slotProps={{ htmlInput: { 'data-testid': testId, 'aria-label': label } }}
      sx={sx}
    />
  );
}

/** The toolbar's "search" button beside one or more SearchFields. */
export function SearchButton({ onClick, testId }: { onClick: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Button variant="outlined" startIcon={<SearchIcon />} onClick={onClick} data-testid={testId} sx={{ flexShrink: 0 }}>
      {t('common:actions.search')}
    </Button>
  );
}
