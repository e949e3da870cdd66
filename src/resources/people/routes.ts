/**
 * The nested routes of a contact's details and a task's comments, as the original serves them: each is the
 * resource's one declaration, narrowed to the parent in the path (src/routes/nested-routes.ts).
 */
import type { Hono } from "hono";
import { people } from "../../../drizzle/schema";
import { bulkRoutes } from "../../write/bulk";
import { nestedRoutes, type NestedParent } from "../../routes/nested-routes";
import { resourceRoutes, UUID_PARAM, type Action } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { commentResource, taskOwner } from "../tasks/resource";
import { addressResource, contactReferralResource } from "./linked";
import { contactOwner, personOwner } from "./owners";
import {
  emailAddressResource,
  facebookAccountResource,
  familyRelationshipResource,
  linkedinAccountResource,
  personResource,
  phoneNumberResource,
  twitterAccountResource,
  websiteResource,
} from "./resource";

const ALL: Action[] = ["list", "show", "create", "update", "delete"];
const CONTACT = `${API}/contacts/:contact_id${UUID_PARAM}`;
const PERSON = `${CONTACT}/people/:person_id${UUID_PARAM}`;

const ofContact: NestedParent = { param: "contact_id", owner: contactOwner, relationship: "contact" };
const ofPerson: NestedParent = { param: "person_id", owner: personOwner, relationship: "person", under: { param: "contact_id", column: people.contactId } };

/** A person's details, by the path segment the original uses for each. */
const PERSON_DETAILS = {
  email_addresses: emailAddressResource,
  phones: phoneNumberResource,
  facebook_accounts: facebookAccountResource,
  linkedin_accounts: linkedinAccountResource,
  twitter_accounts: twitterAccountResource,
  websites: websiteResource,
  relationships: familyRelationshipResource,
};

export function registerPeopleRoutes(app: Hono<AppEnv>): void {
  // Every person of the caller's contacts, and their bulk create, update and delete.
  app.route(`${API}/contacts/people/bulk`, bulkRoutes(personResource, { actions: ["create", "update", "delete"] }));
  app.route(`${API}/contacts/people`, resourceRoutes(personResource, { actions: ["list", "show", "update", "delete"] }));
  app.route(`${CONTACT}/addresses`, nestedRoutes(addressResource, ofContact, { actions: ALL }));
  app.route(`${CONTACT}/people`, nestedRoutes(personResource, ofContact, { actions: ALL }));
  // The contacts this contact referred (its referrers are at /contacts/<id>/referrers).
  app.route(`${CONTACT}/referrals`, nestedRoutes(contactReferralResource, { ...ofContact, relationship: "referred_by" }, { actions: ALL }));
  for (const [segment, resource] of Object.entries(PERSON_DETAILS)) {
    app.route(`${PERSON}/${segment}`, nestedRoutes(resource, ofPerson, { actions: ALL }));
  }
  app.route(
    `${API}/tasks/:task_id${UUID_PARAM}/comments`,
    nestedRoutes(commentResource, { param: "task_id", owner: taskOwner, relationship: "task" }, { actions: ALL }),
  );
}
