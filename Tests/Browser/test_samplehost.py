"""Real-Chromium tests of SampleHost/index.html.

The page is served from a loopback HTTP server; a shim defined before the page's scripts records every message
posted to window.webkit.messageHandlers; each TC string the page produces is decoded with our Swift decoder
(`webcmp inspect --json`) and compared with the choices that were clicked.

Browser driving: Debian's chromium + chromium-driver, and Selenium from PyPI, pointed at /usr/bin/chromedriver
(no driver download). Screenshots of both layers, light and dark, at phone size go to
.build/samplehost-screenshots/.
"""
import functools
import http.server
import json
import os
import pathlib
import subprocess
import threading

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEBCMP = ROOT / ".build" / "debug" / "webcmp"
SHOTS = ROOT / ".build" / "samplehost-screenshots"
VENDORS = [1, 2, 21, 28, 755, 1001, 1126]
LI_VENDORS = [1, 2, 21, 755, 1126]
LI_PURPOSES = [2, 7, 8, 9, 10, 11]

SHIM = """
window.__posted = [];
window.webkit = { messageHandlers: {
  jsHandler: { postMessage: function (m) { window.__posted.push(['jsHandler', JSON.parse(JSON.stringify(m))]); } },
  osbCmpMessageHandler: { postMessage: function (m) { window.__posted.push(['osbCmpMessageHandler', JSON.parse(JSON.stringify(m))]); } }
} };
"""


@pytest.fixture(scope="session")
def server():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT / "SampleHost"))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/index.html" % httpd.server_address[1]
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844",
                     "--disable-dev-shm-usage", "--no-first-run"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHIM})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    yield driver
    driver.quit()


def inspect(tc_string):
    result = subprocess.run([str(WEBCMP), "inspect", "--json", tc_string], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def ids(binary):
    return [index + 1 for index, char in enumerate(binary) if char == "1"]


def open_page(browser, server, query="platform=ios&dialect=gravito"):
    browser.get(server + "?" + query)
    return browser.execute_script("return window.__posted")


def posted(browser):
    return browser.execute_script("return window.__posted")


def last_save(browser, handler="jsHandler"):
    saves = [m for h, m in posted(browser) if h == handler and (m.get("type") == "save" or m.get("event") == "save" or "consent" in m)]
    assert saves, "no save was posted"
    return saves[-1]


def click(browser, element_id):
    browser.find_element("id", element_id).click()


def test_ready_messages_in_order(browser, server):
    messages = open_page(browser, server)
    assert messages[0] == ["jsHandler", {"type": "CMP-loaded"}]
    assert messages[1] == ["jsHandler", {"type": "load", "configversion": "1"}]


def test_accept_all_produces_a_string_with_every_choice(browser, server):
    open_page(browser, server)
    click(browser, "accept-all")
    save = last_save(browser)
    assert save["isRejectAll"] is False and save["configversion"] == "1" and save["tcstringversion"] == 2
    keys = inspect(save["tcstring"])
    assert ids(keys["IABTCF_PurposeConsents"]) == list(range(1, 12))
    assert ids(keys["IABTCF_PurposeLegitimateInterests"]) == LI_PURPOSES
    assert ids(keys["IABTCF_SpecialFeaturesOptIns"]) == [1, 2]
    assert ids(keys["IABTCF_VendorConsents"]) == VENDORS
    assert ids(keys["IABTCF_VendorLegitimateInterests"]) == LI_VENDORS
    assert ids(keys["IABTCF_DisclosedVendors"]) == VENDORS
    assert keys["IABTCF_PolicyVersion"] == 5
    assert keys["IABTCF_CmpSdkID"] == 300
    ac = inspect_ac(save["tcstring"], save["acString"])
    assert ac == "2~89.1301.2677~dv."


def test_strings_are_tcf_2_3_unless_tcf_2_2_is_asked_for(browser, server):
    """By default every string carries the DisclosedVendors segment (TCF 2.3) and `webcmp inspect` has no
    warning; ?tcf=2.2 writes the core segment only, which `webcmp inspect` reports on stderr (exit status 0)."""
    for query, segments in [("platform=ios&dialect=gravito", 2), ("platform=ios&dialect=gravito&tcf=2.2", 1)]:
        open_page(browser, server, query)
        click(browser, "accept-all")
        tc_string = last_save(browser)["tcstring"]
        assert len(tc_string.split(".")) == segments, query
        result = subprocess.run([str(WEBCMP), "inspect", "--json", tc_string], capture_output=True, text=True, check=True)
        keys = json.loads(result.stdout)
        assert ids(keys["IABTCF_VendorConsents"]) == VENDORS
        assert keys["IABTCF_PolicyVersion"] == 5
        if segments == 2:
            assert ids(keys["IABTCF_DisclosedVendors"]) == VENDORS
            assert result.stderr == ""
        else:
            assert "IABTCF_DisclosedVendors" not in keys
            assert result.stderr.startswith("webcmp: warning: the TC string (created ")
            assert "TCF 2.3 requires the DisclosedVendors segment" in result.stderr
            refused = subprocess.run([str(WEBCMP), "inspect", "--missing-disclosed-vendors", "refuse", tc_string],
                                     capture_output=True, text=True)
            assert refused.returncode == 2 and refused.stdout == ""


def inspect_ac(tc_string, ac):
    result = subprocess.run([str(WEBCMP), "inspect", "--json", "--ac", ac, tc_string], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["IABTCF_AddtlConsent"]


def test_reject_all_produces_an_empty_string(browser, server):
    open_page(browser, server)
    click(browser, "reject-all")
    save = last_save(browser)
    assert save["isRejectAll"] is True
    keys = inspect(save["tcstring"])
    for key in ["IABTCF_PurposeConsents", "IABTCF_PurposeLegitimateInterests", "IABTCF_SpecialFeaturesOptIns",
                "IABTCF_VendorConsents", "IABTCF_VendorLegitimateInterests"]:
        assert ids(keys[key]) == [], key
    assert ids(keys["IABTCF_DisclosedVendors"]) == VENDORS


@pytest.mark.parametrize("clicks,purposes,purpose_li,features,vendors,vendor_li", [
    (["purpose-consent-1", "purpose-consent-3", "purpose-consent-4", "vendor-consent-755", "purpose-li-2"],
     [1, 3, 4], [7, 8, 9, 10, 11], [], [755], LI_VENDORS),
    (["special-feature-2", "vendor-consent-1126", "vendor-consent-1001", "vendor-li-21", "vendor-li-1126"],
     [], LI_PURPOSES, [2], [1001, 1126], [1, 2, 755]),
])
def test_granular_choices(browser, server, clicks, purposes, purpose_li, features, vendors, vendor_li):
    open_page(browser, server)
    click(browser, "manage")
    for element_id in clicks:
        click(browser, element_id)
    click(browser, "save")
    keys = inspect(last_save(browser)["tcstring"])
    assert ids(keys["IABTCF_PurposeConsents"]) == purposes
    assert ids(keys["IABTCF_PurposeLegitimateInterests"]) == purpose_li
    assert ids(keys["IABTCF_SpecialFeaturesOptIns"]) == features
    assert ids(keys["IABTCF_VendorConsents"]) == vendors
    assert ids(keys["IABTCF_VendorLegitimateInterests"]) == vendor_li


def test_close_posts_close(browser, server):
    open_page(browser, server)
    click(browser, "manage")
    click(browser, "close")
    assert posted(browser)[-1] == ["jsHandler", {"type": "close"}]


def test_legacy_gravito_shape(browser, server):
    messages = open_page(browser, server, "platform=ios&dialect=gravito-legacy")
    assert messages[0] == ["jsHandler", {"event": "start"}]
    click(browser, "accept-all")
    save = last_save(browser)
    assert save["event"] == "save" and save["data"] == save["tcstring"]
    click(browser, "manage")
    click(browser, "close")
    assert posted(browser)[-1] == ["jsHandler", {"event": "close"}]


def test_onesecondbefore_dialect(browser, server):
    messages = open_page(browser, server, "platform=ios&dialect=osb")
    assert messages == []
    click(browser, "manage")
    click(browser, "purpose-consent-8")
    click(browser, "save")
    save = last_save(browser, "osbCmpMessageHandler")
    consent = json.loads(save["consent"])
    assert consent["purposes"] == [8]
    assert save["expirationDate"] > 0 and save["cduid"]
    assert ids(inspect(consent["tcString"])["IABTCF_PurposeConsents"]) == [8]


def test_injected_string_restores_the_toggles(browser, server):
    open_page(browser, server)
    click(browser, "manage")
    for element_id in ["purpose-consent-2", "purpose-consent-9", "special-feature-1", "vendor-consent-28"]:
        click(browser, element_id)
    click(browser, "save")
    tc_string = last_save(browser)["tcstring"]
    open_page(browser, server)
    browser.execute_script(
        "window.postMessage({type: 'cookieData', tcstring: arguments[0], nontcfdata: '', acstring: ''}, '*');", tc_string)
    browser.execute_script("return new Promise(r => setTimeout(r, 50))")
    checked = browser.execute_script(
        "return Array.from(document.querySelectorAll('input:checked')).map(e => e.id).filter(id => !id.includes('-li-'))")
    assert sorted(checked) == sorted(["purpose-consent-2", "purpose-consent-9", "special-feature-1", "vendor-consent-28"])
    # A hostile injection leaves the page working.
    browser.execute_script("window.postMessage({type: 'cookieData', tcstring: 'CO\"<script>', nontcfdata: 1}, '*');")
    click(browser, "reject-all")
    assert inspect(last_save(browser)["tcstring"])["IABTCF_PurposeConsents"] == ""


def test_tcfapi_answers(browser, server):
    open_page(browser, server)
    click(browser, "accept-all")
    data = browser.execute_async_script(
        "var done = arguments[0]; window.__tcfapi('getTCData', 2, function (d, ok) { done([d.tcString, d.eventStatus, ok, d.purpose.consents['1']]); });")
    assert data[0] == last_save(browser)["tcstring"] and data[2] is True and data[3] is True
    ping = browser.execute_async_script("var done = arguments[0]; window.__tcfapi('ping', 2, function (p) { done(p); });")
    assert ping["cmpLoaded"] is True and ping["apiVersion"] == "2.2"


def test_works_without_a_native_side(browser, server):
    browser.get(server + "?platform=web&dialect=gravito")
    click(browser, "accept-all")
    log = browser.find_element("id", "log").text
    assert "jsHandler" in log and "save" in log


def test_phone_screenshots(browser, server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ["light", "dark"]:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        open_page(browser, server)
        assert browser.save_screenshot(str(SHOTS / ("layer1-%s.png" % scheme)))
        click(browser, "manage")
        assert browser.save_screenshot(str(SHOTS / ("layer2-%s.png" % scheme)))
        background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(0, 0, 0)" if scheme == "dark" else "rgb(255, 255, 255)")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    # Usable at 320 px: nothing overflows horizontally.
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 640, "deviceScaleFactor": 2, "mobile": True})
    open_page(browser, server)
    click(browser, "manage")
    assert browser.execute_script("return document.documentElement.scrollWidth <= 320")
    browser.save_screenshot(str(SHOTS / "layer2-320.png"))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})


# ---- mode=us: the GPP-only US CMP ------------------------------------------------------------------------------------

US_LISTEN = """
var done = arguments[0];
var seen = [];
var wait = function () {
  window.__gpp('ping', function (p) {
    if (p.cmpStatus !== 'loaded' || p.cmpDisplayStatus !== 'visible') { setTimeout(wait, 20); return; }
    window.__usEvents = [];
    window.__gpp('addEventListener', function (e) { window.__usEvents.push([e.eventName, e.data, e.pingData.signalStatus]); });
    done(p);
  });
};
wait();
"""


def inspect_gpp(gpp, usp):
    result = subprocess.run([str(WEBCMP), "inspect", "--json", "--gpp", gpp, "--gpp-sid", "7", "--usp", usp],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def us_choice(browser, server, clicks, query="mode=us"):
    browser.get(server + "?" + query)
    first = browser.execute_async_script(US_LISTEN)
    for control in clicks:
        click(browser, control)
    ping = browser.execute_async_script("var done = arguments[0]; window.__gpp('ping', function (p) { done(p); });")
    usp = browser.execute_async_script(
        "var done = arguments[0]; window.__uspapi('getUSPData', 1, function (d, ok) { done([d, ok]); });")
    return first, ping, usp, browser.execute_script("return window.__usEvents")


def test_us_mode_is_a_gpp_only_cmp_with_the_spec_event_order(browser, server):
    first, ping, usp, events = us_choice(browser, server, ["us-opt-out", "us-save"])
    assert browser.execute_script("return typeof window.__tcfapi") == "undefined"
    assert browser.execute_script("return window.__posted") == []            # no app protocol in this mode
    assert first["signalStatus"] == "not ready" and first["gppString"] == "DBAA" and first["sectionList"] == []
    # GPP CMP API v1.1, "Event Order Example 1": hidden, sectionChange, then signalStatus ready.
    assert events == [["listenerRegistered", True, "not ready"], ["cmpDisplayStatus", "hidden", "not ready"],
                      ["sectionChange", "usnat", "not ready"], ["signalStatus", "ready", "ready"]]
    assert ping["signalStatus"] == "ready" and ping["sectionList"] == [7] and ping["applicableSections"] == [7]
    assert ping["gppString"].startswith("DBABLA~")
    assert usp == [{"version": 1, "uspString": "1YYN"}, True]
    keys = inspect_gpp(ping["gppString"], usp[0]["uspString"])
    assert keys["IABGPP_HDR_GppString"] == ping["gppString"]
    assert keys["IABGPP_7_String"] == ping["gppString"].split("~")[1]
    assert keys["IABGPP_USNAT_Version"] == 2
    for name in ["SaleOptOut", "SharingOptOut", "TargetedAdvertisingOptOut", "SaleOptOutNotice", "SharingOptOutNotice",
                 "SharingNotice", "TargetedAdvertisingOptOutNotice"]:
        assert keys["IABGPP_USNAT_" + name] == 1, name
    assert keys["IABGPP_USNAT_MspaCoveredTransaction"] == 2
    assert keys["IABUSPrivacy_String"] == "1YYN"
    assert not [key for key in keys if key.startswith("IABTCF_")]
    has = browser.execute_async_script("var done = arguments[0]; window.__gpp('hasSection', function (d) { done(d); }, 'usnat');")
    section = browser.execute_async_script("var done = arguments[0]; window.__gpp('getSection', function (d) { done(d); }, 'usnat');")
    assert has is True and section["SaleOptOut"] == 1


def test_us_mode_accept_and_version_1(browser, server):
    _, ping, usp, _ = us_choice(browser, server, ["us-opt-out", "us-accept"])   # Accept clears the toggle
    keys = inspect_gpp(ping["gppString"], usp[0]["uspString"])
    assert keys["IABGPP_USNAT_SaleOptOut"] == 2 and keys["IABGPP_USNAT_SharingOptOut"] == 2
    assert usp[0]["uspString"] == "1YNN"
    _, ping, usp, _ = us_choice(browser, server, ["us-opt-out", "us-save"], "mode=us&usnatVersion=1")
    keys = inspect_gpp(ping["gppString"], usp[0]["uspString"])
    assert keys["IABGPP_USNAT_Version"] == 1 and keys["IABGPP_USNAT_SaleOptOut"] == 1
    assert keys["IABGPP_USNAT_SensitiveDataProcessing"] == "_".join(["0"] * 12)


def test_us_mode_encoder_matches_the_reference_encoder(browser, server):
    # Outputs of the IAB reference encoder iabgpp-es (see Tests/WebCMPBridgeTests/GPPUSSectionTests.swift); "DBACNYA"
    # (sections 2 and 6) is the header of the example string in the GPP "Consent String Specification".
    browser.get(server + "?mode=us")
    full = {"Version": 2, "SaleOptOut": 1, "SharingOptOut": 1, "TargetedAdvertisingOptOut": 1, "PersonalDataConsents": 1,
            "SensitiveDataProcessing": [2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2],
            "KnownChildSensitiveDataConsents": [2, 1, 0], "MspaCoveredTransaction": 1, "MspaOptOutOptionMode": 1,
            "MspaServiceProviderMode": 2}
    for name in ["SharingNotice", "SaleOptOutNotice", "SharingOptOutNotice", "TargetedAdvertisingOptOutNotice",
                 "SensitiveDataProcessingOptOutNotice", "SensitiveDataLimitUseNotice"]:
        full[name] = 1
    v1 = {"Version": 1, "SensitiveDataProcessing": [1] * 12, "KnownChildSensitiveDataConsents": [1, 1],
          "MspaCoveredTransaction": 1}
    encoded = browser.execute_script(
        "var h = window.__sampleHostUS; return [h.encodeUsnat(arguments[0], true), h.encodeUsnat(arguments[1], false),"
        " h.encodeHeader([7]), h.encodeHeader([2, 6])];", full, v1)
    assert encoded == ["CVVVkkkkkpFY.YA", "BAAAVVVVUQA.QA", "DBABLA", "DBACNYA"]


def test_us_mode_screenshot(browser, server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.get(server + "?mode=us")
    browser.execute_async_script(US_LISTEN)
    assert browser.execute_script("return document.getElementById('layer1').hidden && !document.getElementById('us-layer').hidden")
    assert browser.execute_script("return document.documentElement.scrollWidth <= 390")
    browser.save_screenshot(str(SHOTS / "us-layer.png"))
