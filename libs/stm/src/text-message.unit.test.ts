import { describe, expect, it } from 'vitest';
import { refusal } from './testing/refusal.ts';
import {
  buildArea,
  buildTextMessage,
  parseArea,
  parseTextMessage,
  TEXT_MESSAGE_NAMESPACE,
  textMessageId,
} from './text-message.ts';
import type { TextMessage } from './types.ts';

const SAMPLE = `<?xml version="1.0" encoding="utf-8"?>
<textMessage xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="${TEXT_MESSAGE_NAMESPACE}">
  <textMessageId>urn:mrn:stm:txt:rauma:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0</textMessageId>
  <informationObjectReferenceId>urn:mrn:stm:voyage:id:test:gvx-rau-42</informationObjectReferenceId>
  <informationObjectReferenceType>RTZ</informationObjectReferenceType>
  <validityPeriodStart>2026-11-27T06:00:00Z</validityPeriodStart>
  <validityPeriodStop>2026-11-28T06:00:00Z</validityPeriodStop>
  <author>Harbour master</author>
  <from>urn:mrn:stm:service:instance:rauma:vis</from>
  <serviceType>PORT-VIS</serviceType>
  <createdAt>2026-11-27T07:10:00Z</createdAt>
  <subject>Berth 4 &amp; pilot</subject>
  <body>Pilot boards at 19:00.
Berth 4 is free.</body>
  <position lat="61.11806" lon="21.16778"/>
  <area>
    <Polygon>
      <posList>61.1 21.1 61.1 21.2 61.15 21.2 61.1 21.1</posList>
    </Polygon>
    <Circle>
      <position lat="61.11806" lon="21.16778"/>
      <radius>1</radius>
    </Circle>
  </area>
</textMessage>`;

const PARSED: TextMessage = {
  id: 'urn:mrn:stm:txt:rauma:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
  informationObjectReferenceId: 'urn:mrn:stm:voyage:id:test:gvx-rau-42',
  informationObjectReferenceType: 'RTZ',
  validityPeriodStart: '2026-11-27T06:00:00Z',
  validityPeriodStop: '2026-11-28T06:00:00Z',
  author: 'Harbour master',
  from: 'urn:mrn:stm:service:instance:rauma:vis',
  serviceType: 'PORT-VIS',
  createdAt: '2026-11-27T07:10:00Z',
  subject: 'Berth 4 & pilot',
  body: 'Pilot boards at 19:00.\nBerth 4 is free.',
  position: { lat: 61.11806, lon: 21.16778 },
  area: {
    polygon: [
      { lat: 61.1, lon: 21.1 },
      { lat: 61.1, lon: 21.2 },
      { lat: 61.15, lon: 21.2 },
      { lat: 61.1, lon: 21.1 },
    ],
    circle: { position: { lat: 61.11806, lon: 21.16778 }, radiusNm: 1 },
  },
};

describe('parseTextMessage', () => {
  it('reads every field of an STM text message in the default namespace', () => {
    expect(parseTextMessage(SAMPLE)).toEqual(PARSED);
  });

  it('reads the same message under a namespace prefix and without a namespace', () => {
    const prefixed = `<tm:textMessage xmlns:tm="${TEXT_MESSAGE_NAMESPACE}"><tm:textMessageId>urn:mrn:stm:txt:a:1</tm:textMessageId><tm:author>A</tm:author><tm:from>urn:x</tm:from><tm:createdAt>2026-11-27T07:10:00Z</tm:createdAt><tm:subject>S</tm:subject><tm:body><![CDATA[<b>bold</b> & more]]></tm:body></tm:textMessage>`;
    const bare = prefixed
      .replaceAll('<tm:', '<')
      .replaceAll('</tm:', '</')
      .replace(/ xmlns:tm="[^"]*"/, '');
    const expected = {
      id: 'urn:mrn:stm:txt:a:1',
      author: 'A',
      from: 'urn:x',
      createdAt: '2026-11-27T07:10:00Z',
      subject: 'S',
      body: '<b>bold</b> & more',
    };
    expect(parseTextMessage(prefixed)).toEqual(expected);
    expect(bare).not.toContain('xmlns');
    expect(parseTextMessage(bare)).toEqual(expected);
  });

  it('reads character references and entities once', () => {
    const xml = SAMPLE.replace(
      '<author>Harbour master</author>',
      '<author>G&#228;vle &#xE5; &amp;#228; &lt;&#x1F6A2;&gt;</author>',
    );
    expect(parseTextMessage(xml).author).toBe('Gävle å &#228; <🚢>');
  });

  it('ignores elements of other namespaces with the same name', () => {
    const xml = SAMPLE.replace('<subject>', '<x:subject xmlns:x="urn:other">not this</x:subject><subject>');
    expect(parseTextMessage(xml).subject).toBe('Berth 4 & pilot');
  });

  it.each([
    ['not well-formed', '<textMessage><author>A</textMessage>', /not well-formed XML/],
    ['empty', '   ', /Text message XML is empty/],
    ['two roots', '<textMessage/><textMessage/>', /one root element/],
    [
      'an RTZ route',
      '<route xmlns="http://www.cirm.org/RTZ/1/1" version="1.1"/>',
      /root element textMessage, not route/,
    ],
    ['in another namespace', '<textMessage xmlns="http://www.cirm.org/RTZ/1/1"/>', /root element textMessage/],
    ['a DOCTYPE', '<!DOCTYPE t [<!ENTITY a "x">]><textMessage/>', /DOCTYPE/],
    ['too long', `<textMessage>${' '.repeat(5_000_000)}</textMessage>`, /longer than 5000000 characters/],
  ])('refuses XML that is %s', (_, xml, message) => {
    expect(refusal(() => parseTextMessage(xml)).message).toMatch(message);
  });

  it.each(['textMessageId', 'author', 'from', 'createdAt', 'subject', 'body'])(
    'refuses a message without %s',
    (name) => {
      const xml = SAMPLE.replace(new RegExp(`<${name}>[^<]*</${name}>`), '');
      expect(xml).not.toContain(`<${name}>`);
      expect(refusal(() => parseTextMessage(xml)).message).toBe(`Text message XML is missing ${name}`);
    },
  );

  it.each([
    [
      'a createdAt that is not a time',
      ['2026-11-27T07:10:00Z</createdAt>', 'yesterday</createdAt>'],
      /createdAt is not a valid date/,
    ],
    ['an impossible date', ['2026-11-28T06:00:00Z', '2026-02-30T06:00:00Z'], /validityPeriodStop is not a valid date/],
    [
      'a position that is not a number',
      ['<position lat="61.11806"', '<position lat="north"'],
      /position lat is not a number/,
    ],
    ['a latitude out of range', ['<position lat="61.11806"', '<position lat="91"'], /position lat is out of range/],
    ['an odd posList', ['<posList>61.1 21.1 ', '<posList>21.1 '], /posList must hold/],
    ['a zero radius', ['<radius>1</radius>', '<radius>0</radius>'], /radius must be greater than zero/],
  ])('refuses %s', (_, [from, to], message) => {
    const xml = SAMPLE.replace(from, to);
    expect(xml).not.toBe(SAMPLE);
    expect(refusal(() => parseTextMessage(xml)).message).toMatch(message);
  });
});

describe('buildTextMessage', () => {
  it('round-trips every field', () => {
    expect(parseTextMessage(buildTextMessage(PARSED))).toEqual(PARSED);
    expect(parseTextMessage(buildTextMessage(parseTextMessage(SAMPLE)))).toEqual(PARSED);
  });

  it('writes the schema namespace and order and escapes text', () => {
    const message: TextMessage = {
      id: textMessageId('rauma', '1234'),
      author: 'Port Activity Application',
      from: 'urn:mrn:stm:service:instance:rauma:vis',
      createdAt: '2026-11-27T07:10:00Z',
      subject: 'Route <inconsistent> & "odd"',
      body: "  Leading and trailing space, ä ö å, 'quotes'  ",
      area: { circle: { position: { lat: 61.11806, lon: 21.16778 }, radiusNm: 1 } },
    };
    const xml = buildTextMessage(message);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<textMessage xmlns="')).toBe(true);
    expect(xml).toContain('&lt;inconsistent&gt; &amp;');
    expect(xml).toContain('<area><Circle><position lat="61.11806" lon="21.16778"/><radius>1</radius></Circle></area>');
    const order = ['textMessageId', 'author', 'from', 'createdAt', 'subject', 'body', 'area'].map((n) =>
      xml.indexOf(`<${n}>`),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(parseTextMessage(xml)).toEqual(message);
  });

  it('makes STM text message ids', () => {
    expect(textMessageId('rauma', 'abc-1')).toBe('urn:mrn:stm:txt:rauma:abc-1');
  });
});

describe('areas as text', () => {
  const CIRCLE = '<Circle><position lat="61.11806" lon="21.16778"/><radius>1852</radius></Circle>';

  it("reads the original API's area text: a circle, both shapes, or a whole area element", () => {
    expect(parseArea(CIRCLE)).toEqual({ circle: { position: { lat: 61.11806, lon: 21.16778 }, radiusNm: 1852 } });
    const both = `<Polygon><posList>61 21 61.2 21 61 21.2 61 21</posList></Polygon>${CIRCLE}`;
    expect(parseArea(both).polygon).toHaveLength(4);
    expect(parseArea(`<area>${both}</area>`)).toEqual(parseArea(both));
  });

  it('writes an area as the text of its shapes and reads it back', () => {
    expect(buildArea({ circle: { position: { lat: 61.11806, lon: 21.16778 }, radiusNm: 1852 } })).toBe(CIRCLE);
    expect(parseArea(buildArea(PARSED.area!))).toEqual(PARSED.area);
  });

  it.each([
    ['not well-formed', '<Circle><position lat="1" lon="2"/>', /Text message area is not well-formed/],
    ['neither shape', '<Square/>', /must hold a Circle or a Polygon/],
    ['an attempt to close the wrapper', '</area><x/><area>', /Text message area is not well-formed/],
    ['a circle without radius', '<Circle><position lat="1" lon="2"/></Circle>', /radius is not a number/],
  ])('refuses area text that is %s', (_, fragment, message) => {
    expect(refusal(() => parseArea(fragment)).message).toMatch(message);
  });
});
