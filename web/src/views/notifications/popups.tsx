// Placeholder: incoming notifications shown on every page (built with the notifications view).

export default function NotificationPopups() {
  return null;
}
