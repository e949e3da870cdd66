/** Fixed reference data for the demo database, and the vocabularies the generator draws from. */
import { ACTIVE_STATUSES, ACTIVITIES, HIDDEN_STATUSES, ORGANIZATIONS as CONSTANT_ORGANIZATIONS } from "../../src/constants";

/** The organizations of the constants, as rows (the constants endpoint and the database name the same ones). */
export const ORGANIZATIONS = CONSTANT_ORGANIZATIONS.map((org) => ({
  id: org.id,
  name: org.name,
  apiClass: org.api_class,
  helpEmail: org.help_email,
  oauth: org.oauth,
}));

export const ORG = {
  cruUsa: ORGANIZATIONS[0].id,
  cruCanada: ORGANIZATIONS[1].id,
  agapeUk: ORGANIZATIONS[2].id,
} as const;

/** Units of each currency per 1 USD, exact decimal strings. */
export const CURRENCY_RATES: Record<string, string> = {
  USD: "1",
  CAD: "1.3875",
  GBP: "0.7712",
  EUR: "0.8654",
  AUD: "1.5321",
  NZD: "1.6843",
  JPY: "151.37",
  CHF: "0.8012",
  SEK: "10.6420",
  NOK: "10.9815",
  DKK: "6.4566",
  ZAR: "17.8520",
  KES: "129.50",
  NGN: "1540.25",
  INR: "84.1200",
  SGD: "1.2987",
  HKD: "7.7731",
  PHP: "57.9050",
  MXN: "18.2450",
  BRL: "5.4300",
  KRW: "1389.60",
};

export { NOTIFICATION_TYPES } from "../../src/constants/notifications";

export const STATUSES = { active: ACTIVE_STATUSES, hidden: HIDDEN_STATUSES };

/** Keys of constants.pledge_frequencies, with the number of months between gifts. */
export const PLEDGE_FREQUENCIES = {
  weekly: { key: "0.23076923076923", months: 0 },
  biweekly: { key: "0.46153846153846", months: 0 },
  monthly: { key: "1.0", months: 1 },
  bimonthly: { key: "2.0", months: 2 },
  quarterly: { key: "3.0", months: 3 },
  fourMonthly: { key: "4.0", months: 4 },
  semiAnnual: { key: "6.0", months: 6 },
  annual: { key: "12.0", months: 12 },
  biennial: { key: "24.0", months: 24 },
} as const;
export type FrequencyName = keyof typeof PLEDGE_FREQUENCIES;

export { ACTIVITIES };

/** Results allowed per activity (constants.results); anything else answers "Done". */
export const RESULTS: Record<string, readonly string[]> = {
  Call: ["Attempted - Left Message", "Attempted", "Completed", "Received"],
  Appointment: ["Completed", "Attempted"],
  "Talk to In Person": ["Completed"],
  Email: ["Completed", "Received"],
  "Text Message": ["Completed", "Received"],
  "Social Message": ["Completed", "Received"],
  Letter: ["Completed", "Received"],
  "Pre Call Letter": ["Completed", "Received"],
  "Reminder Letter": ["Completed", "Received"],
  "Support Letter": ["Completed", "Received"],
  Thank: ["Completed", "Received"],
};

export const NEXT_ACTIONS = ["Call", "Email", "Text Message", "Social Message", "Talk to In Person", "Appointment", "Thank"];

export const TASK_TAGS = ["follow-up", "thank-you", "newsletter", "prayer", "year-end", "appointment", "urgent"];
export const CONTACT_TAGS = [
  "church",
  "family",
  "college friend",
  "board",
  "prayer team",
  "monthly",
  "major donor",
  "neighbor",
  "small group",
  "volunteer",
  "alumni",
  "christmas card",
];

export const CHURCHES = [
  "Grace Community Church",
  "First Baptist Church",
  "Calvary Chapel",
  "St. Andrew's Church",
  "New Life Fellowship",
  "Trinity Presbyterian",
  "Hope Church",
  "Christ Church",
  "City Church",
  "Redeemer Church",
];

export const MALE_NAMES = [
  "James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Charles",
  "Daniel", "Matthew", "Anthony", "Mark", "Paul", "Steven", "Andrew", "Joshua", "Kevin", "Brian",
  "George", "Timothy", "Ryan", "Jacob", "Nathan", "Samuel", "Peter", "Aaron", "Benjamin", "Luke",
  "Isaac", "Caleb", "Ethan", "Owen", "Simon", "Oliver", "Henry", "Gareth", "Callum", "Rhys",
];
export const FEMALE_NAMES = [
  "Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah", "Karen",
  "Nancy", "Lisa", "Margaret", "Emily", "Michelle", "Amanda", "Rebecca", "Laura", "Rachel", "Hannah",
  "Abigail", "Grace", "Ruth", "Naomi", "Lydia", "Anna", "Esther", "Julia", "Claire", "Olivia",
  "Sophie", "Megan", "Chloe", "Fiona", "Eleanor", "Harriet", "Priya", "Mei", "Sofia", "Ingrid",
];
export const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez",
  "Lopez", "Wilson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Thompson", "White",
  "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott",
  "Hill", "Green", "Adams", "Baker", "Nelson", "Carter", "Mitchell", "Roberts", "Turner", "Phillips",
  "Campbell", "Parker", "Evans", "Edwards", "Collins", "Stewart", "Morris", "Murphy", "Cook", "Rogers",
  "Morgan", "Peterson", "Cooper", "Reed", "Bailey", "Bell", "Kelly", "Howard", "Ward", "Cox",
  "Richardson", "Wood", "Watson", "Brooks", "Bennett", "Gray", "Hughes", "Price", "Sanders", "Patel",
  "Myers", "Long", "Ross", "Foster", "Nguyen", "Kim", "Chen", "Okafor", "Mensah", "Novak",
  "Jansen", "Schmidt", "Fischer", "O'Brien", "MacDonald", "Fraser", "Lindqvist", "Van der Berg", "Kowalski", "Silva",
];

export const STREETS = [
  "Maple Avenue", "Oak Street", "Pine Road", "Cedar Lane", "Elm Street", "Church Street", "Park Avenue",
  "Washington Street", "Lake Drive", "Hillcrest Road", "Meadow Lane", "River Road", "Sunset Boulevard",
  "High Street", "Station Road", "Mill Lane", "Victoria Road", "Queen Street", "King Street", "Forest Drive",
];

export const OCCUPATIONS = [
  "Teacher", "Engineer", "Nurse", "Accountant", "Pastor", "Physician", "Attorney", "Software Developer",
  "Farmer", "Retired", "Student", "Sales Manager", "Electrician", "Pharmacist", "Designer",
];
export const EMPLOYERS = [
  "Riverside School District", "Acme Manufacturing", "St. Luke's Hospital", "Summit Consulting",
  "Northwind Traders", "Contoso Ltd", "Self-employed", "City Council", "Lakeside University",
];
export const ALMA_MATERS = [
  "State University", "Wheaton College", "Baylor University", "Calvin University", "University of Toronto",
  "University of Edinburgh", "Oxford Brookes University", "Moody Bible Institute", "Trinity Western University",
];

export interface Place {
  city: string;
  state: string;
  region: string;
  metroArea: string;
  country: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  timezone: string;
  phonePrefix: string;
}

const place = (
  city: string,
  state: string,
  region: string,
  metroArea: string,
  country: string,
  postalCode: string,
  latitude: number,
  longitude: number,
  timezone: string,
  phonePrefix: string,
): Place => ({ city, state, region, metroArea, country, postalCode, latitude, longitude, timezone, phonePrefix });

export const US_PLACES: Place[] = [
  place("Orlando", "FL", "Southeast", "Orlando", "United States", "32801", 28.5384, -81.3789, "America/New_York", "+1 407"),
  place("Atlanta", "GA", "Southeast", "Atlanta", "United States", "30303", 33.749, -84.388, "America/New_York", "+1 404"),
  place("Charlotte", "NC", "Southeast", "Charlotte", "United States", "28202", 35.2271, -80.8431, "America/New_York", "+1 704"),
  place("Raleigh", "NC", "Southeast", "Raleigh-Durham", "United States", "27601", 35.7796, -78.6382, "America/New_York", "+1 919"),
  place("Richmond", "VA", "Mid-Atlantic", "Richmond", "United States", "23219", 37.5407, -77.436, "America/New_York", "+1 804"),
  place("Boston", "MA", "Northeast", "Boston", "United States", "02108", 42.3601, -71.0589, "America/New_York", "+1 617"),
  place("Columbus", "OH", "Midwest", "Columbus", "United States", "43215", 39.9612, -82.9988, "America/New_York", "+1 614"),
  place("Grand Rapids", "MI", "Midwest", "Grand Rapids", "United States", "49503", 42.9634, -85.6681, "America/Detroit", "+1 616"),
  place("Chicago", "IL", "Midwest", "Chicago", "United States", "60601", 41.8781, -87.6298, "America/Chicago", "+1 312"),
  place("Minneapolis", "MN", "Midwest", "Minneapolis-St. Paul", "United States", "55401", 44.9778, -93.265, "America/Chicago", "+1 612"),
  place("Springfield", "MO", "Midwest", "Springfield", "United States", "65806", 37.209, -93.2923, "America/Chicago", "+1 417"),
  place("Nashville", "TN", "Southeast", "Nashville", "United States", "37203", 36.1627, -86.7816, "America/Chicago", "+1 615"),
  place("Dallas", "TX", "Southwest", "Dallas-Fort Worth", "United States", "75201", 32.7767, -96.797, "America/Chicago", "+1 214"),
  place("Austin", "TX", "Southwest", "Austin", "United States", "78701", 30.2672, -97.7431, "America/Chicago", "+1 512"),
  place("Denver", "CO", "Mountain", "Denver", "United States", "80202", 39.7392, -104.9903, "America/Denver", "+1 303"),
  place("Phoenix", "AZ", "Southwest", "Phoenix", "United States", "85004", 33.4484, -112.074, "America/Phoenix", "+1 602"),
  place("San Diego", "CA", "West", "San Diego", "United States", "92101", 32.7157, -117.1611, "America/Los_Angeles", "+1 619"),
  place("Portland", "OR", "Northwest", "Portland", "United States", "97204", 45.5152, -122.6784, "America/Los_Angeles", "+1 503"),
  place("Seattle", "WA", "Northwest", "Seattle", "United States", "98101", 47.6062, -122.3321, "America/Los_Angeles", "+1 206"),
];

export const CANADA_PLACES: Place[] = [
  place("Toronto", "ON", "Ontario", "Greater Toronto", "Canada", "M5H 2N2", 43.6532, -79.3832, "America/Toronto", "+1 416"),
  place("Ottawa", "ON", "Ontario", "Ottawa-Gatineau", "Canada", "K1P 1J1", 45.4215, -75.6972, "America/Toronto", "+1 613"),
  place("Montréal", "QC", "Quebec", "Montréal", "Canada", "H2Y 1C6", 45.5019, -73.5674, "America/Toronto", "+1 514"),
  place("Winnipeg", "MB", "Prairies", "Winnipeg", "Canada", "R3C 4T3", 49.8951, -97.1384, "America/Winnipeg", "+1 204"),
  place("Calgary", "AB", "Prairies", "Calgary", "Canada", "T2P 2M5", 51.0447, -114.0719, "America/Edmonton", "+1 403"),
  place("Vancouver", "BC", "British Columbia", "Metro Vancouver", "Canada", "V6B 1A1", 49.2827, -123.1207, "America/Vancouver", "+1 604"),
  place("Halifax", "NS", "Atlantic", "Halifax", "Canada", "B3J 3A5", 44.6488, -63.5752, "America/Halifax", "+1 902"),
];

export const UK_PLACES: Place[] = [
  place("London", "Greater London", "England", "London", "United Kingdom", "SW1A 1AA", 51.5072, -0.1276, "Europe/London", "+44 20"),
  place("Manchester", "Greater Manchester", "England", "Manchester", "United Kingdom", "M1 1AE", 53.4808, -2.2426, "Europe/London", "+44 161"),
  place("Birmingham", "West Midlands", "England", "Birmingham", "United Kingdom", "B1 1BB", 52.4862, -1.8904, "Europe/London", "+44 121"),
  place("Leeds", "West Yorkshire", "England", "Leeds", "United Kingdom", "LS1 1UR", 53.8008, -1.5491, "Europe/London", "+44 113"),
  place("Bristol", "Bristol", "England", "Bristol", "United Kingdom", "BS1 4DJ", 51.4545, -2.5879, "Europe/London", "+44 117"),
  place("Oxford", "Oxfordshire", "England", "Oxford", "United Kingdom", "OX1 1DP", 51.752, -1.2577, "Europe/London", "+44 1865"),
  place("Edinburgh", "City of Edinburgh", "Scotland", "Edinburgh", "United Kingdom", "EH1 1YZ", 55.9533, -3.1883, "Europe/London", "+44 131"),
  place("Cardiff", "Cardiff", "Wales", "Cardiff", "United Kingdom", "CF10 1EP", 51.4816, -3.1791, "Europe/London", "+44 29"),
  place("Belfast", "County Antrim", "Northern Ireland", "Belfast", "United Kingdom", "BT1 5GS", 54.5973, -5.9301, "Europe/London", "+44 28"),
];

export const EUROPE_PLACES: Place[] = [
  place("Dublin", "Leinster", "Leinster", "Dublin", "Ireland", "D02 X285", 53.3498, -6.2603, "Europe/Dublin", "+353 1"),
  place("Amsterdam", "North Holland", "Randstad", "Amsterdam", "Netherlands", "1012 JS", 52.3676, 4.9041, "Europe/Amsterdam", "+31 20"),
  place("Berlin", "Berlin", "Berlin", "Berlin", "Germany", "10117", 52.52, 13.405, "Europe/Berlin", "+49 30"),
];
