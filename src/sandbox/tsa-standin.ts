/**
 * The demo's timestamp authority (RFC 3161): `POST /tsa` takes a `application/timestamp-query` and answers a
 * `application/timestamp-reply` whose token is a CMS SignedData over a TSTInfo (a policy, the query's message
 * imprint and nonce, a serial, the sandbox clock's time, an accuracy of one second), signed by a TSA
 * certificate that a sandbox CA issued. The certificate carries a critical extendedKeyUsage of timeStamping and
 * the signature the ESS signingCertificateV2 attribute, the two things `openssl ts -verify` insists on, so a
 * token from here verifies with the same tool a reviewer would use on a real authority's. The CA's certificate is
 * published at `GET /tsa/certificate.pem`. `POST /tsa-down` always answers 503: a second authority that fails,
 * so a fallback can be shown and tested without a control-plane switch.
 *
 * The keys are made with WebCrypto when the sandbox is built (ECDSA P-256; a fresh pair every start: the demo's
 * tokens prove the shape, not a lasting identity). Never charged, not in the request log (it is not the Social
 * Data API).
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import type { FastifyInstance } from 'fastify';
import {
  Accuracy,
  Attribute,
  AttributeTypeAndValue,
  BasicConstraints,
  Certificate,
  ContentInfo,
  EncapsulatedContentInfo,
  ExtKeyUsage,
  Extension,
  IssuerAndSerialNumber,
  PKIStatus,
  PKIStatusInfo,
  SignedAndUnsignedAttributes,
  SignedData,
  SignerInfo,
  TimeStampReq,
  TimeStampResp,
  TSTInfo,
  id_ContentType_SignedData,
  id_eContentType_TSTInfo,
} from 'pkijs';
import type { SandboxClock } from './clock';

/** the stand-in's policy: a UUID-based OID (2.25), which needs no registration */
const SANDBOX_TSA_POLICY = '2.25.246263118834096563104736839591372417793';

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;

/** hash lengths the stand-in accepts in a query's imprint, by OID */
const IMPRINT_BYTES: Record<string, number> = { [OID.sha256]: 32, [OID.sha384]: 48, [OID.sha512]: 64 };

/** PKIFailureInfo bits (RFC 3161 §2.4.2) */
const FAIL = { badAlg: 0, badRequest: 2, badDataFormat: 5 } as const;

const DAY = 24 * 60 * 60 * 1000;

interface KeyPair {
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

function name(cn: string): AttributeTypeAndValue[] {
  return [
    new AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: 'Skein sandbox' }) }),
    new AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: cn }) }),
  ];
}

/** a key usage bit string: `bits` as the first byte, the unused low bits counted */
function keyUsage(byte: number, unusedBits: number): Extension {
  const value = new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits });
  return new Extension({ extnID: OID.keyUsage, critical: true, extnValue: value.toBER(false) });
}

async function certificate(opts: {
  serial: number;
  subject: string;
  issuer: string;
  keys: KeyPair;
  signer: webcrypto.CryptoKey;
  ca: boolean;
}): Promise<Certificate> {
  const cert = new Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: opts.serial });
  cert.subject.typesAndValues.push(...name(opts.subject));
  cert.issuer.typesAndValues.push(...name(opts.issuer));
  // validity by the real clock, not the sandbox's: openssl checks a chain at the time it runs
  const now = Date.now();
  cert.notBefore.value = new Date(now - DAY);
  cert.notAfter.value = new Date(now + 3650 * DAY);
  await cert.subjectPublicKeyInfo.importKey(opts.keys.publicKey);
  cert.extensions = opts.ca
    ? [
        new Extension({
          extnID: OID.basicConstraints,
          critical: true,
          extnValue: new BasicConstraints({ cA: true }).toSchema().toBER(false),
        }),
        keyUsage(0x06, 1), // keyCertSign, cRLSign
      ]
    : [
        keyUsage(0x80, 7), // digitalSignature
        new Extension({
          extnID: OID.extKeyUsage,
          critical: true,
          extnValue: new ExtKeyUsage({ keyPurposes: [OID.timeStamping] }).toSchema().toBER(false),
        }),
      ];
  await cert.sign(opts.signer, 'SHA-256');
  return cert;
}

function pem(der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

function rejection(fail: number, text: string): ArrayBuffer {
  const failInfo = new Uint8Array(1);
  failInfo[0] = 0x80 >> fail;
  return new TimeStampResp({
    status: new PKIStatusInfo({
      status: PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: text })],
      failInfo: new asn1js.BitString({ valueHex: failInfo.buffer, unusedBits: 7 - fail }),
    }),
  })
    .toSchema()
    .toBER(false);
}

interface SandboxTsa {
  /** the CA certificate that issued the TSA's, as PEM */
  caPem: () => Promise<string>;
  /** a TimeStampResp (DER) for a TimeStampReq (DER) */
  answer: (query: Uint8Array) => Promise<ArrayBuffer>;
  /** settles once the keys and certificates are made, or could not be */
  settled: Promise<void>;
}

/** The stand-in authority: its keys and certificates are made now, in the background; answers wait for them. */
function createSandboxTsa(clock: Pick<SandboxClock, 'now'>): SandboxTsa {
  const ready = (async () => {
    const subtle = webcrypto.subtle;
    const caKeys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const tsaKeys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
    const ca = await certificate({
      serial: 1,
      subject: 'Skein sandbox CA',
      issuer: 'Skein sandbox CA',
      keys: caKeys,
      signer: caKeys.privateKey,
      ca: true,
    });
    const tsa = await certificate({
      serial: 2,
      subject: 'Skein sandbox timestamp authority',
      issuer: 'Skein sandbox CA',
      keys: tsaKeys,
      signer: caKeys.privateKey,
      ca: false,
    });
    const tsaDer = tsa.toSchema(true).toBER(false);
    return { ca, tsa, key: tsaKeys.privateKey, tsaHash: createHash('sha256').update(Buffer.from(tsaDer)).digest() };
  })();
  // a failure surfaces on the first answer; never as an unhandled rejection while the sandbox starts
  ready.catch(() => {});
  let serial = 0;

  return {
    settled: ready.then(
      () => undefined,
      () => undefined,
    ),
    caPem: async () => pem((await ready).ca.toSchema(true).toBER(false)),
    answer: async (query) => {
      let req: TimeStampReq;
      try {
        req = TimeStampReq.fromBER(query);
      } catch {
        return rejection(FAIL.badDataFormat, 'the query is not a timestamp request');
      }
      const hashOid = req.messageImprint.hashAlgorithm.algorithmId;
      const expected = IMPRINT_BYTES[hashOid];
      if (expected === undefined) return rejection(FAIL.badAlg, 'SHA-256, SHA-384 or SHA-512 only');
      if (req.messageImprint.hashedMessage.valueBlock.valueHexView.byteLength !== expected)
        return rejection(FAIL.badRequest, 'the imprint is not as long as its hash');
      const { tsa, key, tsaHash } = await ready;
      serial += 1;
      const tst = new TSTInfo({
        version: 1,
        policy: SANDBOX_TSA_POLICY,
        messageImprint: req.messageImprint,
        serialNumber: new asn1js.Integer({ value: serial }),
        // whole seconds: the accuracy says one second either way
        genTime: new Date(Math.floor(clock.now() / 1000) * 1000),
        accuracy: new Accuracy({ seconds: 1 }),
        ...(req.nonce ? { nonce: req.nonce } : {}),
      });
      const tstDer = tst.toSchema().toBER(false);
      const digest = createHash('sha256').update(Buffer.from(tstDer)).digest();
      const signed = new SignedData({
        version: 3,
        encapContentInfo: new EncapsulatedContentInfo({
          eContentType: id_eContentType_TSTInfo,
          eContent: new asn1js.OctetString({ valueHex: tstDer }),
        }),
        signerInfos: [
          new SignerInfo({
            version: 1,
            sid: new IssuerAndSerialNumber({ issuer: tsa.issuer, serialNumber: tsa.serialNumber }),
            signedAttrs: new SignedAndUnsignedAttributes({
              type: 0,
              attributes: [
                new Attribute({
                  type: OID.contentType,
                  values: [new asn1js.ObjectIdentifier({ value: id_eContentType_TSTInfo })],
                }),
                new Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: tst.genTime })] }),
                new Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
                // ESS signingCertificateV2 { certs: [ ESSCertIDv2 { certHash } ] }: SHA-256, the default, left out
                new Attribute({
                  type: OID.signingCertificateV2,
                  values: [
                    new asn1js.Sequence({
                      value: [
                        new asn1js.Sequence({
                          value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: tsaHash })] })],
                        }),
                      ],
                    }),
                  ],
                }),
              ],
            }),
          }),
        ],
        ...(req.certReq ? { certificates: [tsa] } : {}),
      });
      await signed.sign(key, 0, 'SHA-256');
      return new TimeStampResp({
        status: new PKIStatusInfo({ status: PKIStatus.granted }),
        timeStampToken: new ContentInfo({ contentType: id_ContentType_SignedData, content: signed.toSchema(true) }),
      })
        .toSchema()
        .toBER(false);
    },
  };
}

const QUERY = 'application/timestamp-query';
const REPLY = 'application/timestamp-reply';

export function registerTsaStandIn(app: FastifyInstance, clock: SandboxClock): SandboxTsa {
  const tsa = createSandboxTsa(clock);
  // The sandbox closes only once its keys are made: a worker thread ended while Node makes a key pair aborts the
  // whole process (an assertion in Node's crypto), and the sandbox's worker is ended as soon as it has closed.
  app.addHook('onClose', async () => tsa.settled);
  app.addContentTypeParser(QUERY, { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_req, body, done) => done(null, body));
  app.get('/tsa/certificate.pem', async (_req, reply) => reply.type('application/x-pem-file').send(await tsa.caPem()));
  app.post('/tsa', async (req, reply) => {
    if (req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== QUERY || !Buffer.isBuffer(req.body))
      return reply.code(415).send({ detail: `Send a ${QUERY}` });
    return reply.type(REPLY).send(Buffer.from(await tsa.answer(req.body)));
  });
  // the authority that is always down: a fallback's first choice in tests and in the demo's story
  app.post('/tsa-down', async (_req, reply) =>
    reply.code(503).header('retry-after', '60').send({ detail: 'Service Unavailable' }),
  );
  return tsa;
}
