import { describe, expect, it } from "vitest";
import { get } from "./helpers/api";
import { createViewer } from "./helpers/factories";
import { storage } from "./helpers/storage";

describe("GET /api/v2/constants", () => {
  it("answers the constant list with every table", async () => {
    const { token } = await createViewer();
    const response = await get("/api/v2/constants", token);
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.id).toBe("constantlist");
    expect(data.type).toBe("constant_list");
    const a = data.attributes;
    expect(a.activities).toHaveLength(15);
    expect(a.statuses).toHaveLength(14);
    expect(a.assignable_statuses).toEqual(a.statuses);
    expect(Object.keys(a.notifications)).toHaveLength(20);
    expect(Object.keys(a.languages)).toHaveLength(21);
    expect(a.codes).toContain("USD");
    expect(a.codes.length).toBeGreaterThan(250);
    expect(a.pledge_currencies.usd).toMatchObject({ code: "USD", code_symbol_string: "USD ($)" });
    expect(Object.keys(a.pledge_frequencies)).toEqual(["0.23076923076923", "0.46153846153846", "1.0", "2.0", "3.0", "4.0", "6.0", "12.0", "24.0"]);
    expect(a.results.default).toEqual(["Done"]);
    expect(a.next_actions.default).toEqual(["None"]);
    expect(a.alert_frequencies["604800"]).toBeTruthy();
    expect(a.csv_import.constants.status).toHaveLength(14);
    expect(a.label_types).toHaveLength(7);
    for (const key of ["dates", "locales", "organizations", "organizations_attributes", "bulk_update_option_hashes", "assignable_status_hashes"]) {
      expect(a[key], key).toBeTruthy();
    }
  });

  it("answers the tables the web app reads, in the original's shapes", async () => {
    const { token } = await createViewer();
    const a = (await get("/api/v2/constants?fields[constant_list]=status_hashes,bulk_update_options,notification_translated_hashes,statuses,notifications", token)).body.data.attributes;
    // The contact status select: one {id, value} per status, in the statuses' order.
    expect(a.status_hashes).toEqual(a.statuses.map((status: string) => ({ id: status, value: status })));
    // The contact bulk edit: the choices of each field it can set.
    // In the original's order, which the bulk edit shows them in.
    expect(Object.keys(a.bulk_update_options)).toEqual(["likely_to_give", "send_newsletter", "pledge_currency", "pledge_received", "status"]);
    expect(a.bulk_update_options.status).toEqual(a.statuses);
    expect(a.bulk_update_options.pledge_received).toEqual(["Yes", "No"]);
    expect(a.bulk_update_options.likely_to_give).toContain("Most Likely");
    expect(a.bulk_update_options.pledge_currency.USD).toEqual({ code: "USD", code_symbol_string: "USD ($)", name: "US Dollar", symbol: "$" });
    // The notification preferences page: each type's id (its `key`) beside its description; `notifications` is keyed
    // by the same ids with underscores for dashes, and they are the ids of the stored types preferences link to.
    expect(a.notification_translated_hashes).toHaveLength(20);
    const stored = await storage.prepare("SELECT id, description FROM notification_types").all<{ id: string; description: string }>();
    for (const entry of a.notification_translated_hashes) {
      expect(entry.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(entry).toEqual({ id: a.notifications[entry.key.replace(/-/g, "_")], key: entry.key, value: a.notifications[entry.key.replace(/-/g, "_")] });
      expect(stored.results.find((row) => row.id === entry.key)?.description).toBe(entry.value);
    }
    expect(Object.keys(a.notifications).sort()).toEqual(stored.results.map((row) => row.id.replace(/-/g, "_")).sort());
  });

  it("answers every table the web app loads, each as it asks for them: fields[constant_list] naming them", async () => {
    const { token } = await createViewer();
    // Every key mpdx_practice's serverConstants.load names, and those its pages read from serverConstants.data.
    const loaded = [
      "activity_hashes",
      "assignable_likely_to_give_hashes",
      "assignable_locations",
      "assignable_send_newsletter_hashes",
      "bulk_update_options",
      "csv_import",
      "languages",
      "locales",
      "next_actions",
      "notification_translated_hashes",
      "organizations_attributes",
      "pledge_currencies",
      "pledge_frequency_hashes",
      "results",
      "status_hashes",
      "tnt_import",
    ];
    const response = await get(`/api/v2/constants?fields%5Bconstant_list%5D=${loaded.join("%2C")}`, token);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data.attributes).sort()).toEqual(loaded);
    expect(response.body.data.attributes.tnt_import).toEqual({ max_file_size_in_bytes: response.body.data.attributes.csv_import.max_file_size_in_bytes });
  });

  it("keeps only the tables named in fields[constant_list]", async () => {
    const { token } = await createViewer();
    const response = await get("/api/v2/constants?fields[constant_list]=activities,codes", token);
    expect(Object.keys(response.body.data.attributes).sort()).toEqual(["activities", "codes"]);
  });

  it("leaves only id and type for an empty fieldset, as every resource does", async () => {
    const { token } = await createViewer();
    for (const query of ["fields[constant_list]=", "fields[constant_list]=no_such_table"]) {
      const response = await get(`/api/v2/constants?${query}`, token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { id: "constantlist", type: "constant_list" } });
    }
  });
});
