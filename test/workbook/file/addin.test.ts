import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADDIN_ID } from '../../../src/workbook/file';
import { ADDIN_VERSION, readProperties, writeProperties } from '../../../src/workbook/file/addin';

const manifest = readFileSync(join(__dirname, '..', '..', '..', 'manifest.xml'), 'utf8');

describe("the add-in's part of a saved workbook", () => {
  it('names the add-in of manifest.xml, whose task pane opens with a workbook that asks for it', () => {
    expect(/<Id>([^<]+)<\/Id>/.exec(manifest)![1]).toBe(ADDIN_ID);
    expect(/<Version>([^<]+)<\/Version>/.exec(manifest)![1]).toBe(ADDIN_VERSION);
    // Excel shows the pane of a file whose part has Office.AutoShowTaskpaneWithDocument = true only for
    // a ShowTaskpane action with this TaskpaneId ([MS-OWEMXML]).
    expect(manifest).toContain('<TaskpaneId>Office.AutoShowTaskpaneWithDocument</TaskpaneId>');
  });

  it('changes one property and keeps every other byte of the part', () => {
    const part =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<we:webextension xmlns:we="http://schemas.microsoft.com/office/webextensions/webextension/2010/11" id="{A}"><we:reference id="x" version="1" store="s" storeType="EXCatalog"/><we:alternateReferences/><we:properties><we:property name="Office.AutoShowTaskpaneWithDocument" value="true"/><we:property name="other" value="&quot;kept&quot;"/><we:property name="grc" value="1"/></we:properties><we:bindings/></we:webextension>';
    const changed = writeProperties(part, 'p', new Map([['grc', '"two & <three>"'], ['added', '3']]));
    expect(changed).toBe(part.replace('<we:property name="grc" value="1"/>', '<we:property name="grc" value="&quot;two &amp; &lt;three&gt;&quot;"/><we:property name="added" value="3"/>'));
    expect(readProperties(changed, 'p')).toEqual(
      new Map([
        ['Office.AutoShowTaskpaneWithDocument', 'true'],
        ['other', '"kept"'],
        ['grc', '"two & <three>"'],
        ['added', '3'],
      ]),
    );
    expect(writeProperties(changed, 'p', new Map([['added', undefined]]))).not.toContain('added');
  });
});
