// Contact reference data: statuses, likelihood to give, newsletter preferences,
// address locations, pledge frequencies and pledge-received options, plus the
// mailing-label layouts offered for printing.




export const ACTIVE_STATUSES = [
  "Never Contacted",
  "Ask in Future",
  "Cultivate Relationship",
  "Contact for Appointment",
  "Appointment Scheduled",
  "Call for Decision",
  "Partner - Financial",
  "Partner - Special",
  "Partner - Pray",
] as const;

export const HIDDEN_STATUSES = [
  "Not Interested",
  "Unresponsive",
  "Never Ask",
  "Research Abandoned",
  "Expired Referral",
] as const;

/** The fourteen statuses, in the interface's order: the nine active ones, then the five hidden ones. */
export const STATUSES = [...ACTIVE_STATUSES, ...HIDDEN_STATUSES] as const;

export type Status = (typeof STATUSES)[number];

export const STATUS_HASHES: { id: Status; value: Status }[] = [
  { id: "Never Contacted", value: "Never Contacted" },
  { id: "Ask in Future", value: "Ask in Future" },
  { id: "Cultivate Relationship", value: "Cultivate Relationship" },
  { id: "Contact for Appointment", value: "Contact for Appointment" },
  { id: "Appointment Scheduled", value: "Appointment Scheduled" },
  { id: "Call for Decision", value: "Call for Decision" },
  { id: "Partner - Financial", value: "Partner - Financial" },
  { id: "Partner - Special", value: "Partner - Special" },
  { id: "Partner - Pray", value: "Partner - Pray" },
  { id: "Not Interested", value: "Not Interested" },
  { id: "Unresponsive", value: "Unresponsive" },
  { id: "Never Ask", value: "Never Ask" },
  { id: "Research Abandoned", value: "Research Abandoned" },
  { id: "Expired Referral", value: "Expired Referral" },
];

export const LIKELY_TO_GIVE = ["Least Likely", "Likely", "Most Likely"] as const;

export type LikelyToGive = (typeof LIKELY_TO_GIVE)[number];

export const LIKELY_TO_GIVE_HASHES: { id: LikelyToGive; value: LikelyToGive }[] = [
  { id: "Least Likely", value: "Least Likely" },
  { id: "Likely", value: "Likely" },
  { id: "Most Likely", value: "Most Likely" },
];

export const LOCATIONS = ["Home", "Business", "Mailing", "Seasonal", "Other", "Temporary", "Rep Address"] as const;

export type Location = (typeof LOCATIONS)[number];

export const LOCATION_HASHES: { id: Location; value: Location }[] = [
  { id: "Home", value: "Home" },
  { id: "Business", value: "Business" },
  { id: "Mailing", value: "Mailing" },
  { id: "Seasonal", value: "Seasonal" },
  { id: "Other", value: "Other" },
  { id: "Temporary", value: "Temporary" },
  { id: "Rep Address", value: "Rep Address" },
];

export const SEND_NEWSLETTER = ["Physical", "Email", "Both", "None"] as const;

export type SendNewsletter = (typeof SEND_NEWSLETTER)[number];

export const SEND_NEWSLETTER_HASHES: { id: SendNewsletter; value: SendNewsletter }[] = [
  { id: "Physical", value: "Physical" },
  { id: "Email", value: "Email" },
  { id: "Both", value: "Both" },
  { id: "None", value: "None" },
];

export const PLEDGE_RECEIVED = ["Yes", "No"] as const;

export const PLEDGE_RECEIVED_HASHES: { id: string; value: string }[] = [
  { id: "Yes", value: "Yes" },
  { id: "No", value: "No" },
];

export const PLEDGE_FREQUENCY_KEYS = [
  "0.23076923076923",
  "0.46153846153846",
  "1.0",
  "2.0",
  "3.0",
  "4.0",
  "6.0",
  "12.0",
  "24.0",
] as const;

export type PledgeFrequencyKey = (typeof PLEDGE_FREQUENCY_KEYS)[number];

export const PLEDGE_FREQUENCIES: Record<PledgeFrequencyKey, string> = {
  "0.23076923076923": "Weekly",
  "0.46153846153846": "Every 2 Weeks",
  "1.0": "Monthly",
  "2.0": "Every 2 Months",
  "3.0": "Quarterly",
  "4.0": "Every 4 Months",
  "6.0": "Every 6 Months",
  "12.0": "Annual",
  "24.0": "Every 2 Years",
};

export const PLEDGE_FREQUENCY_HASHES: { id: PledgeFrequencyKey; value: string }[] = [
  { id: "0.23076923076923", value: "Weekly" },
  { id: "0.46153846153846", value: "Every 2 Weeks" },
  { id: "1.0", value: "Monthly" },
  { id: "2.0", value: "Every 2 Months" },
  { id: "3.0", value: "Quarterly" },
  { id: "4.0", value: "Every 4 Months" },
  { id: "6.0", value: "Every 6 Months" },
  { id: "12.0", value: "Annual" },
  { id: "24.0", value: "Every 2 Years" },
];

export const LABEL_TYPES = [
  "Label7160",
  "Label7165",
  "Label5160",
  "Label5163",
  "Envelope10",
  "Label6572",
  "Label6871",
] as const;

export type LabelType = (typeof LABEL_TYPES)[number];
