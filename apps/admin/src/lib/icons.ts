import {
  Activity, BookOpen, CalendarDays, ChartLine, Circle, Download, Feather, FileText, Folder, Heart, Image, KeyRound, Laugh, Library,
  Lightbulb, ListPlus, LogIn, MonitorSmartphone, ListTree, ListX, MessageSquareQuote, Mic, PencilLine, Plus, Quote, RotateCcw, ScrollText, Search, Settings,
  Shield, ShieldCheck, Trash2, Users, type LucideIcon,
} from 'lucide-vue-next';

/**
 * Lucide icons by their kebab-case name, as the server names them (permission points, menus). Only these are
 * bundled: importing all of lucide to look names up would add hundreds of kilobytes. Unknown names draw a circle.
 */
export const ICONS: Record<string, LucideIcon> = {
  // the ten permission points
  search: Search,
  plus: Plus,
  'pencil-line': PencilLine,
  'trash-2': Trash2,
  'list-x': ListX,
  'list-plus': ListPlus,
  'rotate-ccw': RotateCcw,
  'key-round': KeyRound,
  'shield-check': ShieldCheck,
  download: Download,
  // the built-in menus
  settings: Settings,
  users: Users,
  shield: Shield,
  'list-tree': ListTree,
  'scroll-text': ScrollText,
  'monitor-smartphone': MonitorSmartphone,
  'log-in': LogIn,
  library: Library,
  quote: Quote,
  feather: Feather,
  lightbulb: Lightbulb,
  laugh: Laugh,
  mic: Mic,
  'message-square-quote': MessageSquareQuote,
  heart: Heart,
  image: Image,
  'calendar-days': CalendarDays,
  activity: Activity,
  'chart-line': ChartLine,
  // offered in the menu editor
  'book-open': BookOpen,
  folder: Folder,
  'file-text': FileText,
};

export const iconOf = (name: string | null | undefined): LucideIcon => (name && ICONS[name]) || Circle;
