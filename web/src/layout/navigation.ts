import type { SvgIconComponent } from '@mui/icons-material';
import CardMembershipOutlinedIcon from '@mui/icons-material/CardMembershipOutlined';
import CategoryOutlinedIcon from '@mui/icons-material/CategoryOutlined';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import InsertChartOutlinedIcon from '@mui/icons-material/InsertChartOutlined';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import RedeemOutlinedIcon from '@mui/icons-material/RedeemOutlined';
import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import TaskAltOutlinedIcon from '@mui/icons-material/TaskAltOutlined';
import { parseChatLinks } from '../features/tokens/chatLinks';
import type { SystemStatus } from '../features/status/types';
import { isAdmin, isRoot, type SessionUser } from '../lib/session';

/** Where "console" in the top bar leads. */
export const CONSOLE_HOME = '/token';

export interface SidebarEntry {
  path: string;
  /** i18n key of the label. */
  label: string;
  /** Shown as it is instead of a translated label (the configured chat links' names). */
  text?: string;
  icon: SvgIconComponent;
  /** Shown only when this status flag is on (e.g. enable_data_export for the dashboard). */
  flag?: keyof SystemStatus;
  /** Shown to root only (the audit log). */
  rootOnly?: boolean;
}

export interface SidebarSection {
  key: string;
  /** i18n key of the heading. */
  title: string;
  adminOnly?: boolean;
  entries: SidebarEntry[];
}

/**
 * Sidebar sections in spec order. Only entries whose pages exist are listed; the dashboard
 * and settings join as they are built.
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
      { path: '/detail', label: 'shell:nav.detail', icon: InsertChartOutlinedIcon, flag: 'enable_data_export' },
      { path: '/token', label: 'shell:nav.tokens', icon: KeyOutlinedIcon },
      { path: '/log', label: 'shell:nav.logs', icon: ReceiptLongOutlinedIcon },
      { path: '/midjourney', label: 'shell:nav.drawing', icon: ImageOutlinedIcon, flag: 'enable_drawing' },
      { path: '/task', label: 'shell:nav.tasks', icon: TaskAltOutlinedIcon, flag: 'enable_task' },
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
      { path: '/plan', label: 'shell:nav.plans', icon: CardMembershipOutlinedIcon },
      { path: '/models', label: 'shell:nav.models', icon: CategoryOutlinedIcon },
      { path: '/setting', label: 'shell:nav.settings', icon: SettingsOutlinedIcon },
      { path: '/audit', label: 'shell:nav.audit', icon: FactCheckOutlinedIcon, rootOnly: true },
    ],
  },
  {
    key: 'personal',
    title: 'shell:sidebar.personal',
    entries: [{ path: '/personal', label: 'shell:nav.personal', icon: ManageAccountsOutlinedIcon }],
  },
];

/** One chat entry per configured chat link (status.chats), after the playground. */
function withChatEntries(section: SidebarSection, status: Partial<SystemStatus>): SidebarSection {
  if (section.key !== 'chat') return section;
  const links = parseChatLinks(status.chats) ?? [];
  const chats = links.map((link, index) => ({ path: `/chat/${index}`, label: 'chat:title', text: link.name, icon: ForumOutlinedIcon }));
  return { ...section, entries: [...section.entries, ...chats] };
}

/** The sections and entries this user may see, given the status flags. */
export function visibleSections(user: SessionUser | null, status: Partial<SystemStatus>): SidebarSection[] {
  return SIDEBAR_SECTIONS.map((section) => withChatEntries(section, status))
    .filter((section) => !section.adminOnly || isAdmin(user))
    .map((section) => ({ ...section, entries: section.entries.filter((entry) => (!entry.flag || !!status[entry.flag]) && (!entry.rootOnly || isRoot(user))) }))
    .filter((section) => section.entries.length > 0);
}

const PATHS_WITHOUT_SIDEBAR = [/^\/$/, /^\/chat(\/|$)/, /^\/setup$/];

export function pathHasSidebar(pathname: string): boolean {
  return !PATHS_WITHOUT_SIDEBAR.some((pattern) => pattern.test(pathname));
}
