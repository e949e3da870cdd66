/** The description of one demo account list, and what the generator learns about its contacts. */
import type { FrequencyName, Place } from "./catalog";
import type { Clock } from "./clock";
import type { Dataset } from "./dataset";
import type { PersonInfo } from "./people";

export interface DesignationSpec {
  key: string;
  name: string;
  number: string;
  currency: string;
  organizationId: string;
  active: boolean;
  balanceCents: number;
  legacyNumber?: string;
  staffAccountId?: string;
}

export interface AppealSpec {
  key: string;
  name: string;
  amountCents: number;
  description: string;
  /** End date, in days from the reference date. */
  endDays: number;
  /** How long the appeal runs before its end date. */
  windowDays: number;
  active: boolean;
  primary?: boolean;
}

export interface InviteSpec {
  key: string;
  email: string;
  as: "user" | "coach";
  state: "pending" | "accepted" | "cancelled";
  acceptedByUserId?: string;
  daysAgo: number;
}

/** A hand-written contact, for data a test or a demo wants to find by name. */
export interface ShowcaseContact {
  name: string;
  kind: "single" | "couple" | "organization";
  people?: Array<{ firstName: string; lastName: string; gender: "male" | "female"; emails?: string[] }>;
  status: string | null;
  pledge?: { amountCents: number; currency?: string; frequency: FrequencyName; startDays: number };
  place?: Place;
  noAppeals?: boolean;
  tags?: string[];
  likelyToGive?: string;
  sendNewsletter?: string;
}

export interface ListSpec {
  key: string;
  id: string;
  name: string;
  currency: string;
  homeCountry: string;
  organizationId: string;
  ownerId: string;
  ownerPersonId: string;
  coachIds: string[];
  monthlyGoalCents: number | null;
  mpd: { startDays: number; finishDays: number; goalCents: number } | null;
  lastPrayerLetterDays: number | null;
  tester: boolean;
  /** Days before the reference date the list was created. */
  createdDaysAgo: number;
  contactCount: number;
  places: Array<readonly [Place[], number]>;
  /** A share of partners who give in another currency, from other places. */
  otherCurrency?: { currency: string; share: number; places: Place[] };
  locales: Array<readonly [string, number]>;
  giftAidCountry?: boolean;
  designationAccounts: DesignationSpec[];
  appeals: AppealSpec[];
  invites: InviteSpec[];
  notificationTypeKeys: string[];
  showcase?: ShowcaseContact[];
  /** Base of the donor account numbers, unique per organization. */
  donorNumberBase: number;
}

export interface Pledge {
  amountCents: number;
  currency: string;
  frequency: FrequencyName;
  startDate: string;
  received: boolean;
  /** Last day of giving for partners who stopped (late, or no longer financial partners). */
  stoppedOn: string | null;
  /** The smaller amount given before `increasedOn`. */
  increasedFrom: number | null;
  increasedOn: string | null;
}

export interface ContactInfo {
  id: string;
  index: number;
  name: string;
  status: string | null;
  hidden: boolean;
  isOrganization: boolean;
  noAppeals: boolean;
  people: PersonInfo[];
  place: Place;
  pledge: Pledge | null;
  /** Number of one-off gifts outside any pledge. */
  oneOffGifts: number;
  createdAt: string;
}

export interface ListContext {
  spec: ListSpec;
  clock: Clock;
  data: Dataset;
  notificationTypeIds: Map<string, string>;
  designations: Array<DesignationSpec & { id: string }>;
  contacts: ContactInfo[];
}
