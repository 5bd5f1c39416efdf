import { firm } from "./firm";

/**
 * The FAQ, written from the ATS facts of docs/requirements.md ("Constants and limits") and nothing else.
 * Answers are plain text; the page and the landing block render them as such.
 */
export type FaqEntry = { id: string; question: string; answer: string };

const ats = firm.atsName;

export const faqEntries: readonly FaqEntry[] = [
  {
    id: "what-is-the-ats",
    question: `What is ${ats}?`,
    answer: `${ats} is an Alternative Trading System (ATS) for U.S. stocks and ETFs, operated by ${firm.name}, with instant settlement of every trade.`,
  },
  {
    id: "when-does-it-start",
    question: `When will ${ats} begin operating?`,
    answer: `${firm.name} expects ${ats} to begin operating in ${firm.operatingStart}.`,
  },
  {
    id: "trading-hours",
    question: "What are the trading hours?",
    answer: `${ats} is open from 9:30am to 4:00pm Eastern Time (ET) on weekdays.`,
  },
  {
    id: "market-holidays",
    question: "Is the ATS open on market holidays?",
    answer: `No. ${ats} is closed on U.S. equity market holidays.`,
  },
  {
    id: "extended-hours",
    question: "Is there pre-market or after-hours trading?",
    answer: `No. ${ats} does not offer extended-hours trading; orders can trade only between 9:30am and 4:00pm ET on weekdays.`,
  },
  {
    id: "who-may-subscribe",
    question: `Who can subscribe to ${ats}?`,
    answer: "Subscribers are institutional, U.S.-registered broker-dealers that are correspondents of a clearing firm.",
  },
  {
    id: "retail-investors",
    question: "Can I trade on the ATS as an individual (retail) investor?",
    answer: `Retail investors cannot trade on ${ats} directly. If you would like your orders to reach ${ats}, please ask your broker-dealer.`,
  },
  {
    id: "what-can-be-traded",
    question: "What securities can be traded?",
    answer: `${ats} trades U.S. stocks and ETFs. OTC securities and crypto assets are not traded.`,
  },
  {
    id: "instant-settlement",
    question: "How are trades settled?",
    answer: `Trades on ${ats} settle instantly: there is no waiting period between a trade and its settlement.`,
  },
  {
    id: "order-types",
    question: "Which order types are accepted?",
    answer: `${ats} accepts limit orders only, and every order is post-only.`,
  },
  {
    id: "time-in-force",
    question: "Which time-in-force instructions are available?",
    answer:
      "Orders may be Immediate or Cancel (IOC), Fill or Kill (FOK), Day (DAY) or Good 'Til Canceled (GTC). A GTC order stays open for up to 60 days.",
  },
  {
    id: "gtc-duration",
    question: "How long does a Good 'Til Canceled (GTC) order stay open?",
    answer: "A GTC order stays open for up to 60 days, unless it is filled or canceled first.",
  },
  {
    id: "matching",
    question: "How are orders matched?",
    answer:
      "Orders are matched first in, first out (FIFO) by price-time priority: the best price trades first, and at the same price the earliest order trades first.",
  },
  {
    id: "market-data",
    question: "What market data does the ATS display?",
    answer: `${ats} displays the best prices and their sizes, as a lit market does, but it does not display the full order book.`,
  },
  {
    id: "commissions",
    question: "How are commissions charged?",
    answer:
      "Commissions are charged per share traded, with discounts that depend on whether an order makes or takes liquidity.",
  },
  {
    id: "dividends",
    question: "What happens to trading around a dividend?",
    answer: `Trading of a stock on ${ats} is suspended between its ex-dividend date and its record date.`,
  },
  {
    id: "fractional-shares",
    question: "Can I trade fractional shares?",
    answer: `No. ${ats} does not offer trading in fractional shares.`,
  },
  {
    id: "unsettled-positions",
    question: "Can unsettled positions be traded?",
    answer: `No. ${ats} does not allow trading of unsettled positions.`,
  },
  {
    id: "otc-securities",
    question: "Are OTC securities traded?",
    answer: `No. ${ats} does not trade OTC securities.`,
  },
  {
    id: "crypto",
    question: "Can crypto assets be traded?",
    answer: `No. ${ats} does not trade crypto assets.`,
  },
  {
    id: "securities-lending",
    question: "Does the firm offer securities lending?",
    answer: `No. ${firm.name} does not offer securities lending.`,
  },
  {
    id: "proprietary-trading",
    question: "Does the firm trade for its own account?",
    answer: `No. ${firm.name} does not engage in proprietary trading.`,
  },
  {
    id: "payment-for-order-flow",
    question: "Does the firm pay for order flow?",
    answer: `No. ${firm.name} does not pay for order flow.`,
  },
  {
    id: "conditional-orders",
    question: "Are conditional orders or indications of interest (IOIs) supported?",
    answer: `No. ${ats} does not support conditional orders or indications of interest (IOIs).`,
  },
  {
    id: "investment-advice",
    question: "Does the firm give investment advice?",
    answer: `No. ${firm.name} does not provide investment advice.`,
  },
];
