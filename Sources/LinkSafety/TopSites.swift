/// Sites so widely used, and so often imitated, that their name in front of another domain
/// (`www.paypal.com.evil.example`) is a warning even when no rule of yours names them: the
/// brands phishing reports name most (banks and payments, mail and cloud accounts, shops,
/// delivery, social networks), as registrable domains in ASCII. Only target embedding reads
/// it; the look-alike check stays with your own domains. Labels are at least
/// `TargetEmbedding.minimumLabelLength` long, so no two-letter name is ever matched.
enum TopSites {
    /// The domains.
    static let domains: Set<String> = [
        // Search, mail, cloud accounts
        "google.com", "gmail.com", "youtube.com", "microsoft.com", "live.com", "outlook.com",
        "office.com", "office365.com", "microsoftonline.com", "sharepoint.com", "onedrive.com",
        "skype.com", "bing.com", "yahoo.com", "aol.com", "apple.com", "icloud.com", "amazon.com",
        "amazonaws.com", "dropbox.com", "box.com", "docusign.com", "docusign.net", "adobe.com",
        "zoom.us", "webex.com", "slack.com", "atlassian.com", "github.com", "gitlab.com",
        "proton.me", "protonmail.com", "zoho.com", "yandex.ru", "mail.ru", "gmx.net", "gmx.de",
        "web.de", "t-online.de", "orange.fr", "free.fr", "laposte.net", "libero.it",
        "wetransfer.com", "mega.nz", "salesforce.com", "godaddy.com", "cloudflare.com",
        "mozilla.org", "wikipedia.org", "debian.org", "ubuntu.com",
        // Social and messaging
        "facebook.com", "instagram.com", "whatsapp.com", "messenger.com", "twitter.com",
        "linkedin.com", "tiktok.com", "snapchat.com", "pinterest.com", "reddit.com",
        "discord.com", "telegram.org", "signal.org", "tumblr.com", "twitch.tv", "vk.com",
        "steampowered.com", "steamcommunity.com", "roblox.com", "epicgames.com",
        "playstation.com", "xbox.com", "nintendo.com", "netflix.com", "spotify.com",
        "disneyplus.com", "hulu.com",
        // Payments and banks
        "paypal.com", "paypal.me", "stripe.com", "venmo.com", "cash.app", "wise.com",
        "revolut.com", "coinbase.com", "binance.com", "kraken.com", "blockchain.com",
        "metamask.io", "americanexpress.com", "visa.com", "mastercard.com", "discover.com",
        "chase.com", "bankofamerica.com", "wellsfargo.com", "citi.com", "citibank.com",
        "capitalone.com", "usbank.com", "pnc.com", "tdbank.com", "schwab.com", "fidelity.com",
        "vanguard.com", "hsbc.com", "hsbc.co.uk", "barclays.co.uk", "lloydsbank.com",
        "natwest.com", "santander.com", "santander.co.uk", "ing.com", "bnpparibas.com",
        "deutsche-bank.de", "commerzbank.de", "sparkasse.de", "postbank.de", "unicredit.it",
        "intesasanpaolo.com", "rbc.com", "scotiabank.com", "commbank.com.au", "westpac.com.au",
        "anz.com", "nab.com.au", "interac.ca", "klarna.com", "afterpay.com", "alipay.com",
        // Shops and delivery
        "amazon.co.uk", "amazon.de", "amazon.fr", "amazon.it", "amazon.es", "amazon.ca",
        "amazon.co.jp", "amazon.in", "ebay.com", "ebay.co.uk", "ebay.de", "etsy.com",
        "walmart.com", "target.com", "bestbuy.com", "costco.com", "homedepot.com", "ikea.com",
        "aliexpress.com", "alibaba.com", "temu.com", "shein.com", "shopify.com", "booking.com",
        "airbnb.com", "expedia.com", "uber.com", "lyft.com", "doordash.com", "dhl.com",
        "dhl.de", "fedex.com", "ups.com", "usps.com", "royalmail.com", "canadapost.ca",
        "auspost.com.au", "laposte.fr", "post.ch", "deutschepost.de", "hermesworld.com",
        "evri.com",
        // Government and tax
        "irs.gov", "ssa.gov", "gov.uk", "hmrc.gov.uk", "service-public.fr", "impots.gouv.fr",
        "canada.ca", "ato.gov.au", "mygov.au",
    ]

    /// The last label of each (`com`, `uk`, `de`), to pass over the words of a host that cannot
    /// end one.
    static let finalLabels: Set<String> = Set(domains.compactMap { domain in
        // By bytes: splitting each domain into Substrings was ~1M instructions at every start.
        guard let dot = domain.utf8.lastIndex(of: UInt8(ascii: ".")), domain.utf8.index(after: dot) != domain.endIndex else {
            return domain.split(separator: ".").last.map(String.init)
        }
        return String(domain[domain.utf8.index(after: dot)...])
    })
}
