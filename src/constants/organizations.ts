// Organization reference data: the donation-system organizations accounts can be
// connected to, with the integration class each uses and its support contact.

export interface Organization {
  id: string;
  name: string;
  api_class: string;
  help_email: string | null;
  oauth: boolean;
}

export interface OrganizationAttributes {
  name: string;
  api_class: string;
  help_email: string | null;
  oauth: boolean;
}

export const ORGANIZATIONS: Organization[] = [
  {
    id: "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b01",
    name: "Cru - USA",
    api_class: "Siebel",
    help_email: "support@cru.org",
    oauth: true,
  },
  {
    id: "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b02",
    name: "Cru - Canada",
    api_class: "DataServer",
    help_email: "support@crucanada.ca",
    oauth: false,
  },
  {
    id: "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b03",
    name: "Agape UK",
    api_class: "DataServer",
    help_email: null,
    oauth: false,
  },
  {
    id: "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b04",
    name: "Campus Crusade for Christ - New Zealand",
    api_class: "DataServer",
    help_email: null,
    oauth: false,
  },
  {
    id: "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b05",
    name: "Power To Change - Australia",
    api_class: "OfflineOrg",
    help_email: null,
    oauth: false,
  },
];

export const ORGANIZATION_NAMES: Record<string, string> = {
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b01": "Cru - USA",
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b02": "Cru - Canada",
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b03": "Agape UK",
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b04": "Campus Crusade for Christ - New Zealand",
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b05": "Power To Change - Australia",
};

export const ORGANIZATIONS_ATTRIBUTES: Record<string, OrganizationAttributes> = {
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b01": {
    name: "Cru - USA",
    api_class: "Siebel",
    help_email: "support@cru.org",
    oauth: true,
  },
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b02": {
    name: "Cru - Canada",
    api_class: "DataServer",
    help_email: "support@crucanada.ca",
    oauth: false,
  },
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b03": {
    name: "Agape UK",
    api_class: "DataServer",
    help_email: null,
    oauth: false,
  },
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b04": {
    name: "Campus Crusade for Christ - New Zealand",
    api_class: "DataServer",
    help_email: null,
    oauth: false,
  },
  "6b7a3c8e-1f2d-4e5a-9b0c-1d2e3f4a5b05": {
    name: "Power To Change - Australia",
    api_class: "OfflineOrg",
    help_email: null,
    oauth: false,
  },
};
