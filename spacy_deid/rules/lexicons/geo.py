"""US states and territories, and countries, for the location patterns."""

from typing import List

# USPS two-letter codes of the states, DC and the inhabited territories.
STATE_ABBRS: List[str] = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO "
    "MT NE NV NH NJ NM NY NC ND OH OK OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY "
    "GU VI MP"
).split()
# Codes that are also clinician credentials ("note from Smith, PA", "in Jones,
# MD's clinic"): after a weak cue ("from", "in") they are not accepted.
CREDENTIAL_STATE_ABBRS: List[str] = ["MD", "PA"]
STATE_NAMES: List[str] = [
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
    "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
    "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
    "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana",
    "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
    "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania",
    "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
    "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming",
    "Puerto Rico",
]  # fmt: skip
# Sovereign states and a few constituent countries, as written in English
# prose. "Georgia" is a US state here; "US" is left out (ultrasound).
COUNTRIES: List[str] = [
    "Afghanistan", "Albania", "Algeria", "Andorra", "Angola", "Antigua",
    "Argentina", "Armenia", "Australia", "Austria", "Azerbaijan", "Bahamas",
    "Bahrain", "Bangladesh", "Barbados", "Belarus", "Belgium", "Belize", "Benin",
    "Bhutan", "Bolivia", "Bosnia", "Bosnia and Herzegovina", "Botswana", "Brazil",
    "Brunei", "Bulgaria", "Burkina Faso", "Burma", "Burundi", "Cambodia",
    "Cameroon", "Canada", "Cape Verde", "Central African Republic", "Chad",
    "Chile", "China", "Colombia", "Comoros", "Congo", "Costa Rica",
    "Cote d'Ivoire", "Ivory Coast", "Croatia", "Cuba", "Cyprus", "Czechia",
    "Czech Republic", "Denmark", "Djibouti", "Dominica", "Dominican Republic",
    "East Timor", "Ecuador", "Egypt", "El Salvador", "England", "Equatorial Guinea",
    "Eritrea", "Estonia", "Eswatini", "Ethiopia", "Fiji", "Finland", "France",
    "Gabon", "Gambia", "Germany", "Ghana", "Great Britain", "Greece", "Grenada",
    "Guatemala", "Guinea", "Guinea-Bissau", "Guyana", "Haiti", "Honduras",
    "Hong Kong", "Hungary", "Iceland", "India", "Indonesia", "Iran", "Iraq",
    "Ireland", "Israel", "Italy", "Jamaica", "Japan", "Jordan", "Kazakhstan",
    "Kenya", "Kiribati", "Kosovo", "Kuwait", "Kyrgyzstan", "Laos", "Latvia",
    "Lebanon", "Lesotho", "Liberia", "Libya", "Liechtenstein", "Lithuania",
    "Luxembourg", "Madagascar", "Malawi", "Malaysia", "Maldives", "Mali", "Malta",
    "Mauritania", "Mauritius", "Mexico", "Micronesia", "Moldova", "Monaco",
    "Mongolia", "Montenegro", "Morocco", "Mozambique", "Myanmar", "Namibia",
    "Nepal", "Netherlands", "New Zealand", "Nicaragua", "Niger", "Nigeria",
    "North Korea", "North Macedonia", "Northern Ireland", "Norway", "Oman",
    "Pakistan", "Palau", "Palestine", "Panama", "Papua New Guinea", "Paraguay",
    "Peru", "Philippines", "Poland", "Portugal", "Qatar", "Romania", "Russia",
    "Rwanda", "Saint Lucia", "Samoa", "San Marino", "Saudi Arabia", "Scotland",
    "Senegal", "Serbia", "Seychelles", "Sierra Leone", "Singapore", "Slovakia",
    "Slovenia", "Solomon Islands", "Somalia", "South Africa", "South Korea",
    "South Sudan", "Spain", "Sri Lanka", "Sudan", "Suriname", "Swaziland",
    "Sweden", "Switzerland", "Syria", "Taiwan", "Tajikistan", "Tanzania",
    "Thailand", "Togo", "Tonga", "Trinidad", "Trinidad and Tobago", "Tunisia",
    "Turkey", "Turkmenistan", "Uganda", "Ukraine", "United Arab Emirates",
    "United Kingdom", "United States", "United States of America", "USA",
    "Uruguay", "Uzbekistan", "Vanuatu", "Venezuela", "Vietnam", "Viet Nam",
    "Wales", "Yemen", "Zambia", "Zimbabwe", "Korea", "UK", "U.K.", "U.S.A.",
]  # fmt: skip
# Countries that are also common given names or words ("message from Chad"):
# they need a strong cue ("born in", "immigrated from").
AMBIGUOUS_COUNTRIES: List[str] = [
    "Chad", "Jordan", "Israel", "India", "Kenya", "Georgia", "Turkey", "Niger",
    "Guinea", "Dominica", "Mali", "Oman", "Togo", "Grenada", "Trinidad", "Malta",
]  # fmt: skip
# State names that are also given names or other places ("from Virginia"):
# they need a strong cue when they stand alone.
AMBIGUOUS_STATE_NAMES: List[str] = [
    "Georgia", "Virginia", "Washington", "Indiana", "Nevada", "Carolina",
]  # fmt: skip
