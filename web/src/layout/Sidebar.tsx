import {
  Box,
  Divider,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
} from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SidebarSection } from './navigation';

export const SIDEBAR_WIDTH = 232;
export const SIDEBAR_COLLAPSED_WIDTH = 68;

interface SidebarProps {
  sections: SidebarSection[];
  collapsed: boolean;
  onToggleCollapsed?: () => void;
  onNavigate?: () => void;
}

/** The console navigation; collapsed, it shows icons with tooltips. */
export function Sidebar({ sections, collapsed, onToggleCollapsed, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Box component="nav" aria-label={t('shell:sidebar.label')} sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ flex: 1, overflowY: 'auto', py: 1 }}>
        {sections.map((section, index) => (
          <List
            key={section.key}
            dense
            subheader={
              collapsed ? (
                index > 0 ? <Divider sx={{ my: 1, mx: 2 }} /> : undefined
              ) : (
                <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: '36px', fontSize: 12, letterSpacing: 0.5 }}>
                  {t(section.title)}
                </ListSubheader>
              )
            }
          >
            {section.entries.map((entry) => {
              const Icon = entry.icon;
              const selected = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
              const button = (
                <ListItemButton
                  component={RouterLink}
                  to={entry.path}
                  selected={selected}
                  onClick={onNavigate}
                  sx={{
                    mx: 1,
                    borderRadius: 2,
                    minHeight: 42,
                    justifyContent: collapsed ? 'center' : 'flex-start',
                    '&.Mui-selected': { color: 'primary.main', '& .MuiListItemIcon-root': { color: 'primary.main' } },
                  }}
                >
                  <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36 }}>
                    <Icon fontSize="small" />
                  </ListItemIcon>
                  {!collapsed && <ListItemText primary={entry.text ?? t(entry.label)} slotProps={{ primary: { sx: { fontWeight: 500 } } }} />}
                </ListItemButton>
              );
              return collapsed ? (
                <Tooltip key={entry.path} title={entry.text ?? t(entry.label)} placement="right">
                  {button}
                </Tooltip>
              ) : (
                <Box key={entry.path}>{button}</Box>
              );
            })}
          </List>
        ))}
      </Box>
      {onToggleCollapsed && (
        <>
          <Divider />
          <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', p: 1 }}>
            <Tooltip title={collapsed ? t('shell:sidebar.expand') : t('shell:sidebar.collapse')}>
              <IconButton
                size="small"
                onClick={onToggleCollapsed}
                aria-label={collapsed ? t('shell:sidebar.expand') : t('shell:sidebar.collapse')}
              >
                {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
              </IconButton>
            </Tooltip>
          </Box>
        </>
      )}
    </Box>
  );
}
