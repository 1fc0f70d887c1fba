// A fixed DKIM key and message for the determinism tests: RSASSA-PKCS1-v1_5 is deterministic, so the same key, message and
// timestamp give the same DKIM-Signature in Node (test/support/dkim-node.ts, the transport tests' control endpoint) and
// in workerd (test/worker/lib/dkim, test/transport/dkim.test.ts). TEST-ONLY KEY: made for these tests, signs nothing real.

export const FIXTURE_SIGNER = { domain: 'acme.test', selector: 'relay2026' };

/** PKCS#8 PEM of a 2048-bit RSA key, test only. */
export const FIXTURE_PRIVATE_KEY = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCfEiP9YkZq6nnN',
  'CJNlwep4y4ocY6oZzt1LJnR1OQNduqFRjY6uCZF3hyERgtRJGdWtjUvdaDfMlwyn',
  'qC/vgpO7TwokLOcUDjehDbz+kFLf6+Wu9gDDEcYgqwGGsIcej1DHtLitKyZLE9Zk',
  'tiDASWx/G2GOf8P1eP0RSNFoBS9JDJGVbSolOjqmDGEvJi17TWNUV5GDJHVMJgHy',
  'Ensxv10S/TOn1hyS9leV/uvYEhbiDcb24wVjbz5cKBp/pVpokHDpJgVmuwqEUXQ+',
  'PGy0Sv/WurYQTk8eIFKXhsah+isModZ4DeHzTXqWO5aoxLFb7q+iCY3+PxhFFMfv',
  'LHBIZqeHAgMBAAECggEAB2qsHOipHzEMOXVt50UHBAIm0Ai26fnNiER5vOwfQ7kr',
  'mQbVoThhp5ti/P2xnNrvLea0ToAedz6PtigkXAbQO9/ajtyScEqdaLf1mOpCbZ2t',
  'GYmaItOVqPjwMEcoyvxO/ZC9OkMUclRcHwP9kO7wzRhfZb/VSNZkTkWr5dgKtV16',
  've8XQLBD+ikJQgsDCCKILlwedG+1HkwCrDTm/ggzxY5HaeONUEgypMU2H7EV2lwP',
  'L5S/8Br7zQugbgEclyYiUwJ/yaC8Uo3nsLYdq/7fNS5rvBaBuBpf1/Sp1ACC5cE1',
  '5MJktIuvIiJIMYtT2BBXHXwqmmdq2AOutQ8sUjdG6QKBgQDfZHpLk8v5PyHYNeJK',
  'BhY67Ut6+8JFPIEApBSUYTgfhi46bTdTHjwBUpyM0/3mpUfFhCayqOtY6jo0zLOw',
  'rkSNqD/iUB2eSYh5r0WuaEUEJhoQvvu3aA4qkkVXuXfaL3/AZ5lQ0O9uP0X7x0rX',
  'nLnfrpjtuixDLm4WNj+OqA+i6wKBgQC2Sib205m1dK7EB/WwUAa8MoVNsUmJya2x',
  'VWZij7H0xDzk1CllWq+JJcRC9UnRKsS0Ce8Ms5+/ILY6dUsWwgb0OHrjqDwFKE6H',
  'j/Uek83cvkI77+xtNlQRF+VSl1Ov/Hw70rbaVYYJnj+N4bYqrB4CbaZK/Lhi6u4u',
  'S4xWGiHO1QKBgCs+2UnuN6ttpFClxcPMv9ryew041ZfvqY2FNhKva1z27dYTtIUb',
  'skQTSQkeNOXEk0tSVOd7OexBk7kK87I9WjoOGyflmIY+9/OOka+8sbem5J7fSf1s',
  'YGmvXUspNWGAlnuZ0p1JhUBTcWnXX86zoWwC8cn7o3vx7g/QuqcUM8q3AoGBAJtI',
  'EWcDG5XSPqmoqia2FPauBpYHJsCkNzyvpdbh11LM855uCJFZLdyjeksbjfUK/KLt',
  'L2Bfhv4WDIVBs2RAhhH2JuDVR8OQ8UxTWhfhCmU3AU7zczAZLoWdGHFBjT2F1AJV',
  '3gOhBNwenL7s/fPdyHaDFzwbiaphu+Fd477Y5eG9AoGAEa8WN0h33teUAKn7rn76',
  'FdGIzPf0EqYygUjA4klzguCYD6bVVKgBtjDmOdSN7lkizDxdMPdsPl5VIuIRDec1',
  'PsS2yvSeD1z4ae18s4rhosY80uiI5AuFakgAtsQ6dgk4oMxvkV+LTvmyeAifxB/y',
  'caYkLttCy+8SFkY8XoxpWTQ=',
  '-----END PRIVATE KEY-----',
].join('\n');

/** Its public key, base64 SPKI (the p= of the record). */
export const FIXTURE_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnxIj/WJGaup5zQiTZcHqeMuKHGOqGc7dSyZ0dTkDXbqhUY2OrgmRd4chEYLUSRnVrY1L3Wg3zJcMp6gv74KTu08KJCznFA43oQ28/pBS3+vlrvYAwxHGIKsBhrCHHo9Qx7S4rSsmSxPWZLYgwElsfxthjn/D9Xj9EUjRaAUvSQyRlW0qJTo6pgxhLyYte01jVFeRgyR1TCYB8hJ7Mb9dEv0zp9YckvZXlf7r2BIW4g3G9uMFY28+XCgaf6VaaJBw6SYFZrsKhFF0PjxstEr/1rq2EE5PHiBSl4bGoforDKHWeA3h8016ljuWqMSxW+6vogmN/j8YRRTH7yxwSGanhwIDAQAB';

export const FIXTURE_TIMESTAMP = 1_790_000_000;

/** A built-looking message with fixed Date and boundaries, a relay header, a folded header and a line starting with a dot. */
export const FIXTURE_MESSAGE = [
  'Date: Mon, 21 Sep 2026 10:13:20 +0000',
  'From: "Acme News" <news@acme.test>',
  'To: <ada@example.test>',
  'Message-ID: <b1.m42@acme.test>',
  'Subject: =?UTF-8?B?SMOpbGxvLCBBZGE=?=',
  'MIME-Version: 1.0',
  'Return-Path: <bounces@acme.test>',
  'List-Unsubscribe: <https://acme.localhost/u/abc>,',
  ' <mailto:unsubscribe@acme.test?subject=abc>',
  'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
  'X-SMTPAPI: {"category":["news"]}',
  'Content-Type: multipart/alternative; boundary=fixedboundary1',
  '',
  '--fixedboundary1',
  'Content-Type: text/plain; charset=UTF-8',
  'Content-Transfer-Encoding: 7bit',
  '',
  'Hello  Ada,\t',
  '.a line that starts with a dot',
  '',
  '--fixedboundary1',
  'Content-Type: text/html; charset=UTF-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  '<p>Hello   Ada,</p>',
  '<p>.a line that starts with a dot</p>',
  '',
  '--fixedboundary1--',
  '',
  '',
].join('\r\n');

/** The DKIM-Signature header Node made for FIXTURE_MESSAGE with FIXTURE_PRIVATE_KEY at FIXTURE_TIMESTAMP. */
export const FIXTURE_SIGNATURE = `${[
  'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=acme.test;',
  ' s=relay2026; t=1790000000; h=from:from:to:subject:subject:date:message-id:',
  ' mime-version:content-type:list-unsubscribe:list-unsubscribe-post;',
  ' bh=aradQxzL2wAK+XOjYk4nFRwIDfoLerDBgrphZLGyNCQ=; b=Wmw6R/MIMR5ztfyFCUYVY53WoW',
  ' KHZ+CI4dY0QSzg/8yf5xwABuZm/fUKNSyc0bZIV+pRiqLqWdUZIdcDlVj/wpLO7+SpG3y7ii7n5Im',
  ' TFh2LCxTy+96hmGqToJPdcTc8MGPcccXCguRv43eROk1foJHHpFzEGHR4/3y3h6jj6mlvvjd8a1yD',
  ' j31pnoHYFL3Ui9AmKLt11mNJ39dKo3hqS0f2NKlqN6TGaMB4ZDmtT/ctlsB5yNFTKhoEPZ67Cm8t3',
  ' VcYA6DUi2y0S3pU5A9MxoU7ZV/aB16LJxYihDyLTnp+noutRhl7sgEnj4kRxhXCFTtTFaiTjxK524',
  ' +eupQ7/A==',
].join('\r\n')}\r\n`;
