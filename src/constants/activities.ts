// Task reference data: activity types, the next actions and results allowed for
// each activity, and the reminder (alert) options offered for tasks.

export const ACTIVITIES = [
  "Call",
  "Appointment",
  "Email",
  "Text Message",
  "Social Message",
  "Letter",
  "Newsletter - Physical",
  "Newsletter - Email",
  "Pre Call Letter",
  "Reminder Letter",
  "Support Letter",
  "Thank",
  "To Do",
  "Talk to In Person",
  "Prayer Request",
] as const;

export type Activity = (typeof ACTIVITIES)[number];

export const ACTIVITY_HASHES: { id: Activity; value: Activity }[] = [
  { id: "Call", value: "Call" },
  { id: "Appointment", value: "Appointment" },
  { id: "Email", value: "Email" },
  { id: "Text Message", value: "Text Message" },
  { id: "Social Message", value: "Social Message" },
  { id: "Letter", value: "Letter" },
  { id: "Newsletter - Physical", value: "Newsletter - Physical" },
  { id: "Newsletter - Email", value: "Newsletter - Email" },
  { id: "Pre Call Letter", value: "Pre Call Letter" },
  { id: "Reminder Letter", value: "Reminder Letter" },
  { id: "Support Letter", value: "Support Letter" },
  { id: "Thank", value: "Thank" },
  { id: "To Do", value: "To Do" },
  { id: "Talk to In Person", value: "Talk to In Person" },
  { id: "Prayer Request", value: "Prayer Request" },
];

export const NEXT_ACTIONS: Record<string, string[]> = {
  call: ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  appointment: ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  email: ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  "social message": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  "text message": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  "talk to in person": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  "prayer request": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Prayer Request", "Thank"],
  letter: ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "None"],
  "pre call letter": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "None"],
  "reminder letter": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "None"],
  "support letter": ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "None"],
  thank: ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "None"],
  default: ["None"],
};

export const RESULTS: Record<string, string[]> = {
  call: ["Attempted - Left Message", "Attempted", "Completed", "Received"],
  appointment: ["Completed", "Attempted"],
  email: ["Completed", "Received"],
  "social message": ["Completed", "Received"],
  "text message": ["Completed", "Received"],
  letter: ["Completed", "Received"],
  "pre call letter": ["Completed", "Received"],
  "reminder letter": ["Completed", "Received"],
  "support letter": ["Completed", "Received"],
  thank: ["Completed", "Received"],
  "talk to in person": ["Completed"],
  default: ["Done"],
};

export const ALERT_FREQUENCIES: Record<string, string> = {
  "0": "at the time of event",
  "300": "5 minutes before",
  "900": "15 minutes before",
  "1800": "30 minutes before",
  "3600": "1 hour before",
  "7200": "2 hours before",
  "86400": "1 day before",
  "172800": "2 days before",
  "604800": "1 week before",
};

/** The mobile apps offer the same reminder times. */
export const MOBILE_ALERT_FREQUENCIES: Record<string, string> = { ...ALERT_FREQUENCIES };

export const NOTIFICATION_TIME_UNITS = ["minutes", "hours", "days"] as const;

export type NotificationTimeUnit = (typeof NOTIFICATION_TIME_UNITS)[number];

export const NOTIFICATION_TYPES_FOR_TASKS = ["email", "mobile", "both"] as const;

export type TaskNotificationType = (typeof NOTIFICATION_TYPES_FOR_TASKS)[number];
