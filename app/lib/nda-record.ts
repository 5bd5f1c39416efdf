/** The parts of an investor's NDA record the model assembles and the investor's page shows. */
export type NdaRecordStep = { auditId: number; action: string; at: number; by: string | null };

export type NdaEvidence = {
  typedName: string | null;
  email: string;
  ip: string | null;
  userAgent: string | null;
  authMethod: string | null;
  copySha256: string | null;
  consentId: string | null;
};
