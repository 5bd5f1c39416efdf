// @ts-check
// The static list of migrations, so the bundled server carries them with it.
// Add each new migration here, in order.
import * as m001 from "./001_initial.js";
import * as m002 from "./002_investor_table_indexes.js";
import * as m003 from "./003_investor_counts.js";
import * as m004 from "./004_users_version.js";
import * as m005 from "./005_partial_investor_indexes.js";
import * as m006 from "./006_drop_user_lock_columns.js";
import * as m007 from "./007_second_factor.js";
import * as m008 from "./008_audit_chain.js";
import * as m009 from "./009_second_factor_at_rest.js";
import * as m010 from "./010_audit_chain_keyed.js";
import * as m011 from "./011_last_sign_in.js";
import * as m012 from "./012_investor_search_text.js";
import * as m013 from "./013_administrators.js";
import * as m014 from "./014_audit_log_indexes.js";
import * as m015 from "./015_sessions_and_devices.js";
import * as m016 from "./016_materials_library.js";
import * as m017 from "./017_reading_totals.js";
import * as m018 from "./018_administrators_index.js";
import * as m019 from "./019_address_lines.js";
import * as m020 from "./020_nda_signing.js";
import * as m021 from "./021_reading_time.js";
import * as m022 from "./022_administrator_alerts.js";
import * as m023 from "./023_after_the_materials.js";
import * as m024 from "./024_page_time_totals.js";
import * as m025 from "./025_reader_reading_medians.js";

/** @type {Record<string, import("kysely/migration").Migration>} */
export const migrations = {
  "001_initial": m001,
  "002_investor_table_indexes": m002,
  "003_investor_counts": m003,
  "004_users_version": m004,
  "005_partial_investor_indexes": m005,
  "006_drop_user_lock_columns": m006,
  "007_second_factor": m007,
  "008_audit_chain": m008,
  "009_second_factor_at_rest": m009,
  "010_audit_chain_keyed": m010,
  "011_last_sign_in": m011,
  "012_investor_search_text": m012,
  "013_administrators": m013,
  "014_audit_log_indexes": m014,
  "015_sessions_and_devices": m015,
  "016_materials_library": m016,
  "017_reading_totals": m017,
  "018_administrators_index": m018,
  "019_address_lines": m019,
  "020_nda_signing": m020,
  "021_reading_time": m021,
  "022_administrator_alerts": m022,
  "023_after_the_materials": m023,
  "024_page_time_totals": m024,
  "025_reader_reading_medians": m025,
};
