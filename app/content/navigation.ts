/** The site's menus, shared by the header, the mobile menu, the footer and the sitemap. */
export const companyLinks = [
  { to: "/aboutus", label: "About Us" },
  { to: "/news", label: "News" },
  { to: "/contact", label: "Contact Us" },
] as const;

export const headerLinks = [
  { to: "/pricing", label: "Pricing" },
  { to: "/faq", label: "FAQ" },
] as const;

export const footerLinks = [
  { to: "/news", label: "News" },
  { to: "/pricing", label: "Pricing" },
  { to: "/faq", label: "FAQ" },
  { to: "/aboutus", label: "About Us" },
  { to: "/contact", label: "Contact Us" },
  { to: "/financing/login", label: "Investor Login" },
] as const;

/** Pages listed in sitemap.xml: the public ones only. */
export const publicPages = [
  "/",
  "/aboutus",
  "/contact",
  "/faq",
  "/pricing",
  "/news",
  "/demo",
  "/investors",
  "/disclaimer",
  "/introvideo",
] as const;
