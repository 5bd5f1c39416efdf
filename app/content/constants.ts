/** The product's numbers (docs/requirements.md, "Constants and limits"), read off in one place. */
export const PASSWORD_MIN_LENGTH = 8; // The old site's 6 raised to 8 (docs/requirements.md, "Validation").
export const PASSWORD_MAX_LENGTH = 128;
export const VERIFY_COUNTDOWN_SECONDS = 5;
export const FAQ_PAGE_SIZE = 10;
export const TOAST_AUTO_CLOSE_MS = 5000;
export const LANDING_VIDEO_BREAKPOINT_PX = 640;
export const VIDEO_LAYOUT_BREAKPOINT_PX = 1024;
export const SCROLL_ANIMATION_OFFSET_PX = 150;
export const SCROLL_THROTTLE_MS = 50;
export const ACCORDION_TRANSITION_MS = 200;
/** The team portraits' intrinsic size, so the page reserves their space before they load. */
export const TEAM_PHOTO_SIZE_PX = 320;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;
export const CONTACT_NAME_MAX_LENGTH = 100;
/** The longest e-mail address SMTP can carry (RFC 5321 caps a forward path at 254 characters). */
export const EMAIL_MAX_LENGTH = 254;
/** The name and address form of /financing: each field, and how many address lines. */
export const NAME_FIELD_MAX_LENGTH = 200;
export const ADDRESS_LINE_COUNT = 3;
/** The address as stored: three lines of 200 and the two spaces that join them. */
export const ADDRESS_MAX_LENGTH = ADDRESS_LINE_COUNT * NAME_FIELD_MAX_LENGTH + ADDRESS_LINE_COUNT - 1;
/** Bodies larger than this are refused on the auth and API routes. */
export const AUTH_BODY_LIMIT_BYTES = 16 * 1024;
/** The public contact form may carry a long message in a multibyte script. */
export const PAGE_BODY_LIMIT_BYTES = 64 * 1024;
/** get_investors: the largest page a client may ask for, and the page it gets with a cursor but no limit. */
export const API_INVESTOR_PAGE_MAX = 500;
export const API_INVESTOR_PAGE_DEFAULT = 100;
