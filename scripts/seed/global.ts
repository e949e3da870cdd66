/** Data shared by every account list: organizations, currency rates, notification types, announcements. */
import { CURRENCY_RATES, NOTIFICATION_TYPES, ORGANIZATIONS } from "./catalog";
import type { Clock } from "./clock";
import { type Dataset, stamps } from "./dataset";
import { seedId } from "./random";

export function addOrganizations(data: Dataset, clock: Clock): void {
  for (const org of ORGANIZATIONS) {
    data.add("organizations", {
      id: org.id,
      name: org.name,
      api_class: org.apiClass,
      help_email: org.helpEmail,
      oauth: org.oauth,
      ...stamps(clock.time(-2500, 0)),
    });
  }
}

/**
 * Each currency's rate now, and a rate taken every 30 days over the 14 months before (within 2% of it, the last
 * one the rate now), so the reports' conversions on dates have days to choose from.
 */
export function addCurrencyRates(data: Dataset, clock: Clock): void {
  for (const [code, rate] of Object.entries(CURRENCY_RATES)) {
    data.add("currency_rates", { code, rate, updated_at: clock.time(-1, 23) });
    if (code === "USD") continue;
    const places = rate.split(".")[1]?.length ?? 0;
    for (let step = 14; step >= 0; step--) {
      const drift = step === 0 ? 0 : ((step % 5) - 2) / 100;
      data.add("currency_rate_history", { code, exchanged_on: clock.date(-30 * step - 1), rate: (Number(rate) * (1 + drift)).toFixed(places), updated_at: clock.time(-30 * step - 1, 23) });
    }
  }
}

/** The notification types' ids by key. Their rows come with the migrations, under these same stable ids. */
export function notificationTypeIds(): Map<string, string> {
  return new Map(NOTIFICATION_TYPES.map((type) => [type.key, type.id]));
}

interface AnnouncementSpec {
  key: string;
  title: string;
  body: string;
  displayMethod: "banner" | "modal";
  style: string;
  languageCode: string | null;
  imageUrl?: string;
  /** Days from the reference date; `endsDays` null means open-ended. */
  startsDays: number;
  endsDays: number | null;
  actions: Array<{ label: string; action: string; style: string; args?: Record<string, unknown> }>;
}

const DISMISS = { label: "Dismiss", action: "dismiss", style: "default" };

const ANNOUNCEMENTS: AnnouncementSpec[] = [
  {
    key: "maintenance",
    title: "Scheduled maintenance",
    body: "The service will be read-only for about an hour on Saturday night while we upgrade the database.",
    displayMethod: "banner",
    style: "warning",
    languageCode: "en_us",
    startsDays: -7,
    endsDays: null,
    actions: [DISMISS, { label: "Learn more", action: "link", style: "link", args: { url: "https://status.example.org" } }],
  },
  {
    key: "appeal-progress",
    title: "Appeal progress at a glance",
    body: "Appeals now show pledged, received and processed totals side by side.",
    displayMethod: "modal",
    style: "info",
    languageCode: "en_us",
    imageUrl: "https://assets.example.org/announcements/appeal-progress.png",
    startsDays: -3,
    endsDays: null,
    actions: [
      { label: "Show me", action: "go", style: "primary", args: { path: "/tools/appeals" } },
      { label: "Not now", action: "dismiss", style: "default" },
    ],
  },
  {
    key: "tasks-de",
    title: "Neue Funktionen für Aufgaben",
    body: "Aufgaben können jetzt mit Schlagwörtern gefiltert werden.",
    displayMethod: "banner",
    style: "info",
    languageCode: "de",
    startsDays: -10,
    endsDays: null,
    actions: [{ label: "Schließen", action: "dismiss", style: "default" }],
  },
  {
    key: "welcome-fr",
    title: "Bienvenue dans la nouvelle version",
    body: "Découvrez le nouveau tableau de bord et les rappels de tâches.",
    displayMethod: "modal",
    style: "success",
    languageCode: "fr_fr",
    imageUrl: "https://assets.example.org/announcements/welcome.png",
    startsDays: -5,
    endsDays: null,
    actions: [
      { label: "Découvrir", action: "go", style: "primary", args: { path: "/" } },
      { label: "Fermer", action: "dismiss", style: "default" },
    ],
  },
  {
    key: "holidays",
    title: "Holiday support hours",
    body: "Support answers within two working days between Christmas and New Year.",
    displayMethod: "banner",
    style: "default",
    languageCode: null,
    startsDays: -1,
    endsDays: null,
    actions: [DISMISS],
  },
  {
    key: "outage-resolved",
    title: "Donation import delay resolved",
    body: "Donations from last week's import are now all visible.",
    displayMethod: "banner",
    style: "danger",
    languageCode: "en_us",
    startsDays: -60,
    endsDays: -30,
    actions: [DISMISS],
  },
];

export function addAnnouncements(data: Dataset, clock: Clock): void {
  for (const announcement of ANNOUNCEMENTS) {
    const id = seedId("announcement", announcement.key);
    const createdAt = clock.time(announcement.startsDays - 1, 12);
    data.add("announcements", {
      id,
      title: announcement.title,
      body: announcement.body,
      display_method: announcement.displayMethod,
      image_url: announcement.imageUrl ?? null,
      style: announcement.style,
      language_code: announcement.languageCode,
      starts_at: clock.time(announcement.startsDays, 0),
      ends_at: announcement.endsDays === null ? null : clock.time(announcement.endsDays, 0),
      ...stamps(createdAt),
    });
    announcement.actions.forEach((action, position) => {
      data.add("announcement_actions", {
        id: seedId("announcement-action", announcement.key, position),
        announcement_id: id,
        label: action.label,
        action: action.action,
        style: action.style,
        args: action.args ?? null,
        position,
        ...stamps(createdAt),
      });
    });
  }
}
