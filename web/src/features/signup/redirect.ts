/** Sends the browser to another address (payment page, provider, organisation host): a full page load. */
export function redirectTo(url: string): void {
  window.location.assign(url);
}
