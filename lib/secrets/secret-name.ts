/** Secret names: what `{{secrets.NAME}}` refers to. Upper case so they stand out in a flow. Browser-safe. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
