import type { SvgIconComponent } from '@mui/icons-material';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import RedeemOutlinedIcon from '@mui/icons-material/RedeemOutlined';
import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import type { SystemStatus } from '../features/status/types';
import { isAdmin, type SessionUser } from '../lib/session';

/** Where "console" in the top bar leads. */
export const CONSOLE_HOME = '/token';

export interface SidebarEntry {
  path: string;
  /** i18n key of the label. */
  label: string;
  icon: SvgIconComponent;
  /** Shown only when this status flag is on (e.g. enable_data_export for the dashboard). */
  flag?: keyof SystemStatus;
}

export interface SidebarSection {
  key: string;
  /** i18n key of the heading. */
  title: string;
  adminOnly?: boolean;
  entries: SidebarEntry[];
}

/**
 * Sidebar sections in spec order. Only entries whose pages exist are listed; the chat submenu,
 * dashboard, drawing and task logs and settings join as they are built.
 */
export const SIDEBAR_SECTIONS: SidebarSection[] = [
  {
    key: 'chat',
    title: 'shell:sidebar.chat',
    entries: [{ path: '/playground', label: 'shell:nav.playground', icon: ChatBubbleOutlineIcon }],
  },
  {
    key: 'console',
    title: 'shell:sidebar.console',
    entries: [
      { path: '/token', label: 'shell:nav.tokens', icon: KeyOutlinedIcon },
      { path: '/log', label: 'shell:nav.logs', icon: ReceiptLongOutlinedIcon },
      { path: '/topup', label: 'shell:nav.wallet', icon: AccountBalanceWalletOutlinedIcon },
    ],
  },
  {
    key: 'admin',
    title: 'shell:sidebar.admin',
    adminOnly: true,
    entries: [
      { path: '/channel', label: 'shell:nav.channels', icon: HubOutlinedIcon },
      { path: '/user', label: 'shell:nav.users', icon: PeopleAltOutlinedIcon },
      { path: '/redemption', label: 'shell:nav.redemptions', icon: RedeemOutlinedIcon },
    ],
  },
  {
    key: 'personal',
    title: 'shell:sidebar.personal',
    entries: [{ path: '/personal', label: 'shell:nav.personal', icon: ManageAccountsOutlinedIcon }],
  },
];

/** The sections and entries this user may see, given the status flags. */
export function visibleSections(user: SessionUser | null, status: Partial<SystemStatus>): SidebarSection[] {
  return SIDEBAR_SECTIONS.filter((section) => !section.adminOnly || isAdmin(user))
    .map((section) => ({ ...section, entries: section.entries.filter((entry) => !entry.flag || !!status[entry.flag]) }))
    .filter((section) => section.entries.length > 0);
}

const PATHS_WITHOUT_SIDEBAR = [/^\/$/, /^\/chat(\/|$)/, /^\/setup$/];

export function pathHasSidebar(pathname: string): boolean {
  return !PATHS_WITHOUT_SIDEBAR.some((pattern) => pattern.test(pathname));
}
